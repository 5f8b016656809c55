// GET /server_settings: the server's settings, answered without authentication.
import { describe, expect, it } from 'vitest';
import { serverPerTest, startTestServer, type TestServer } from '../helpers/server.js';
import { renderMarkdown } from '../../src/domain/render/markdown.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };

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
    t.server.world.store.updateRealm({
      name: 'Elsinore',
      push_notifications_enabled: false,
      enable_spectator_access: false,
    });
    const r = await t.as('hamlet').get('/server_settings');
    expect(r.body).toMatchObject({
      realm_name: 'Elsinore',
      push_notifications_enabled: false,
      realm_web_public_access_enabled: false,
    });
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
