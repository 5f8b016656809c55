// GET /realm/linkifiers, GET /server_settings (no authentication) and the E2EE test push
// notification.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { renderMarkdown } from '../../src/domain/render/markdown.js';

let t: TestServer;
beforeEach(async () => { t = await startTestServer(); });
afterEach(async () => { await t.close(); });

const ok = { result: 'success', msg: '' };

describe('GET /realm/linkifiers', () => {
  it('lists the linkifiers in their stored order, with every field', async () => {
    const r = await t.as('polonius').get('/realm/linkifiers');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ...ok,
      linkifiers: [
        { id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}', example_input: '#123', reverse_template: '#{id}', alternative_url_templates: ['https://github.com/zulip/zulip/pull/{id}'] },
        { id: 2, pattern: 'RT(?P<id>[0-9]+)', url_template: 'https://rt.example.com/ticket/{id}', example_input: null, reverse_template: null, alternative_url_templates: [] },
      ],
    });
  });

  it('follows the stored order, not the IDs', async () => {
    const store = t.server.world.store;
    const first = store.linkifiers.get(1)!;
    store.linkifiers.remove(first);
    store.linkifiers.insert(first);
    const r = await t.as('hamlet').get('/realm/linkifiers');
    expect(r.body.linkifiers.map((l: { id: number }) => l.id)).toEqual([2, 1]);
  });

  it('needs credentials', async () => {
    expect((await t.anonymous().get('/realm/linkifiers')).status).toBe(401);
  });
});

describe('GET /server_settings', () => {
  it('answers without credentials with the server version and the organization', async () => {
    const r = await t.anonymous().get('/server_settings');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ...ok,
      zulip_feature_level: t.server.server.featureLevel,
      zulip_version: t.server.server.version,
      zulip_merge_base: t.server.server.mergeBase,
      push_notifications_enabled: true,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      external_authentication_methods: [],
      realm_url: t.base,
      realm_uri: t.base,
      realm_name: 'Zulip Dev',
      realm_icon: 'https://secure.gravatar.com/avatar/62429d594b6ffc712f54aee976a18b44?d=identicon',
      realm_description: renderMarkdown(t.server.world.store, t.server.world.store.realm.description),
      realm_web_public_access_enabled: true,
    });
    expect(r.body.realm_description).toMatch(/^<p>The Zulip development environment default organization\./);
    expect(r.body.authentication_methods).toMatchObject({ password: true, email: true, dev: true, ldap: false });
  });

  it('reflects the organization as it is now', async () => {
    t.server.world.store.updateRealm({ name: 'Elsinore', push_notifications_enabled: false, enable_spectator_access: false });
    const r = await t.as('hamlet').get('/server_settings');
    expect(r.body).toMatchObject({ realm_name: 'Elsinore', push_notifications_enabled: false, realm_web_public_access_enabled: false });
  });

  it('reports the feature level the server was started with', async () => {
    const old = await startTestServer({ featureLevel: 300 });
    try {
      const r = await old.anonymous().get('/server_settings');
      expect(r.body).toMatchObject({ zulip_feature_level: 300, zulip_version: '10.0-dev' });
    } finally {
      await old.close();
    }
  });
});

describe('POST /mobile_push/e2ee/test_notification', () => {
  const sent = () => t.server.world.store.sentPushNotifications.all().map((n) => ({ user_id: n.user_id, device_id: n.device_id, kind: n.kind }));

  it('notifies every registered device of the caller when no device is named', async () => {
    const hamlet = t.user('hamlet').user_id;
    const r = await t.as('hamlet').post('/mobile_push/e2ee/test_notification');
    expect(r.body).toEqual(ok);
    expect(sent()).toEqual([{ user_id: hamlet, device_id: 1, kind: 'test' }, { user_id: hamlet, device_id: 2, kind: 'test' }]);
    expect(t.server.world.store.sentPushNotifications.all().every((n) => n.sent_at === t.server.clock.now())).toBe(true);
  });

  it('notifies only the named device', async () => {
    const r = await t.as('hamlet').post('/mobile_push/e2ee/test_notification', { device_id: 2 });
    expect(r.body).toEqual(ok);
    expect(sent()).toEqual([{ user_id: t.user('hamlet').user_id, device_id: 2, kind: 'test' }]);
  });

  it('accepts push_account_id as the device below FL 468, and ignores it from 468 on', async () => {
    const r = await t.as('iago', { 'X-Mock-Feature-Level': '467' }).post('/mobile_push/e2ee/test_notification', { push_account_id: 3 });
    expect(r.body).toEqual(ok);
    expect(sent()).toEqual([{ user_id: t.user('iago').user_id, device_id: 3, kind: 'test' }]);
    const now = await t.as('iago').post('/mobile_push/e2ee/test_notification', { push_account_id: 3 });
    expect(now.body).toEqual({ ...ok, ignored_parameters_unsupported: ['push_account_id'] });
  });

  it.each([
    ['a user without devices', 'othello', {}],
    ['a device of another user', 'hamlet', { device_id: 3 }],
    ['an unknown device', 'hamlet', { device_id: 99 }],
  ])('answers NO_ACTIVE_PUSH_DEVICE for %s', async (_case, who, params) => {
    const r = await t.as(who).post('/mobile_push/e2ee/test_notification', params);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: 'No active registered push device', code: 'NO_ACTIVE_PUSH_DEVICE' });
    expect(sent()).toEqual([]);
  });
});
