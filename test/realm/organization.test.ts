// The organization's administration: e-mail domains (owners), the settings new users start with
// (administrators), the welcome bot's trial message (FL 416) and deactivating the organization,
// which shuts every authenticated request out until the control API reactivates it.
import { describe, expect, it } from 'vitest';
import { serverResetPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { ControlClient } from '../../src/control/client.js';

let t: TestServer;
let control: ControlClient;
serverResetPerTest((server) => {
  t = server;
  control = new ControlClient(server.base);
});

const ownerOnly = error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
const adminOnly = error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
const strip = (events: any[]) => events.map(({ id: _id, ...e }) => e);

describe('/realm/domains', () => {
  it('owners add, change and remove domains; everyone is told and reads them back', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm_domains']);
    const added = await t.as('desdemona').post('/realm/domains', { domain: ' Example.ORG ', allow_subdomains: false });
    expect(added.body).toEqual({ result: 'success', msg: '', new_domain: [2, 'example.org'] });
    expect((await t.as('desdemona').patch('/realm/domains/example.org', { allow_subdomains: true })).status).toBe(200);
    expect((await t.as('hamlet').get('/realm/domains')).body.domains).toEqual([
      { domain: 'zulip.com', allow_subdomains: false },
      { domain: 'example.org', allow_subdomains: true },
    ]);
    expect((await t.as('desdemona').delete('/realm/domains/example.org')).status).toBe(200);
    expect(strip(await eventsOf(t, 'hamlet', queue))).toEqual([
      { type: 'realm_domains', op: 'add', realm_domain: { domain: 'example.org', allow_subdomains: false } },
      { type: 'realm_domains', op: 'change', realm_domain: { domain: 'example.org', allow_subdomains: true } },
      { type: 'realm_domains', op: 'remove', domain: 'example.org' },
    ]);
    const reg = (await t.as('hamlet').post('/register', { fetch_event_types: ['realm_domains'] })).body;
    expect(reg.realm_domains).toEqual([{ domain: 'zulip.com', allow_subdomains: false }]);
  });

  it('lifts the restriction to the domains when the last one goes', async () => {
    expect((await t.as('desdemona').patch('/realm', { emails_restricted_to_domains: true })).status).toBe(200);
    const queue = await registerQueue(t, 'hamlet', ['realm']);
    await t.as('desdemona').delete('/realm/domains/zulip.com');
    expect(strip(await eventsOf(t, 'hamlet', queue))).toEqual([
      { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false },
    ]);
  });

  it('refuses non-owners, invalid, duplicate and unknown domains', async () => {
    expect(
      (await t.as('iago').post('/realm/domains', { domain: 'example.org', allow_subdomains: false })).body,
    ).toEqual(ownerOnly);
    expect((await t.as('iago').patch('/realm/domains/zulip.com', { allow_subdomains: true })).body).toEqual(ownerOnly);
    expect((await t.as('iago').delete('/realm/domains/zulip.com')).body).toEqual(ownerOnly);
    const cases: Array<[string, string]> = [
      ['', "Domain can't be empty."],
      ['example', 'Domain must have at least one dot (.)'],
      [`${'a'.repeat(256)}.org`, 'Domain is too long'],
      ['.example.org', 'Domain cannot start or end with a dot (.)'],
      ['example..org', "Consecutive '.' are not allowed."],
      ['-example.org', "Subdomains cannot start or end with a '-'."],
      ['exa_mple.org', "Domain can only have letters, numbers, '.' and '-'s."],
    ];
    for (const [domain, problem] of cases) {
      expect(
        (await t.as('desdemona').post('/realm/domains', { domain, allow_subdomains: false })).body,
        domain,
      ).toEqual(error('BAD_REQUEST', `Invalid domain: ${problem}`));
    }
    expect(
      (await t.as('desdemona').post('/realm/domains', { domain: 'ZULIP.com', allow_subdomains: true })).body,
    ).toEqual(error('BAD_REQUEST', 'The domain zulip.com is already a part of your organization.'));
    expect((await t.as('desdemona').patch('/realm/domains/example.org', { allow_subdomains: true })).body).toEqual(
      error('BAD_REQUEST', 'No entry found for domain example.org.'),
    );
    expect((await t.as('desdemona').delete('/realm/domains/example.org')).body).toEqual(
      error('BAD_REQUEST', 'No entry found for domain example.org.'),
    );
  });
});

describe('PATCH /realm/user_settings_defaults (FL 96)', () => {
  it('changes what new users start with, tells everyone, and leaves existing users alone', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm_user_settings_defaults']);
    const r = await t
      .as('iago')
      .patch('/realm/user_settings_defaults', { twenty_four_hour_time: true, emojiset: 'text' });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect(strip(await eventsOf(t, 'hamlet', queue))).toEqual([
      { type: 'realm_user_settings_defaults', op: 'update', property: 'twenty_four_hour_time', value: true },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'emojiset', value: 'text' },
    ]);
    const reg = (
      await t.as('hamlet').post('/register', { fetch_event_types: ['realm_user_settings_defaults', 'user_settings'] })
    ).body;
    expect(reg.realm_user_settings_defaults).toMatchObject({ twenty_four_hour_time: true, emojiset: 'text' });
    expect(reg.user_settings.twenty_four_hour_time).toBe(false);
    const created = await t
      .as('iago')
      .post('/users', { email: 'newbie@zulip.com', password: 'secret-password', full_name: 'New Bie' });
    expect(created.status).toBe(200);
  });

  it('checks values as PATCH /settings does, and is for administrators', async () => {
    expect((await t.as('hamlet').patch('/realm/user_settings_defaults', { twenty_four_hour_time: true })).body).toEqual(
      adminOnly,
    );
    expect((await t.as('iago').patch('/realm/user_settings_defaults', { notification_sound: 'bell' })).body).toEqual(
      error('BAD_REQUEST', "Invalid notification sound 'bell'"),
    );
    expect((await t.as('iago').patch('/realm/user_settings_defaults', { default_language: 'xx' })).body).toEqual(
      error('BAD_REQUEST', 'Invalid default_language'),
    );
    expect(
      (await t.as('iago').patch('/realm/user_settings_defaults', { email_notifications_batching_period_seconds: 0 }))
        .body,
    ).toEqual(error('BAD_REQUEST', 'Invalid email batching period: 0 seconds'));
  });
});

describe('POST /realm/test_welcome_bot_custom_message (FL 416)', () => {
  it('has the welcome bot send the custom message alone to the caller, as a new account would get it', async () => {
    const r = await t
      .as('iago')
      .post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'Welcome, read **this**.' });
    expect(r.status).toBe(200);
    const msg = (await t.as('iago').get(`/messages/${r.body.message_id}`)).body.message;
    expect(msg).toMatchObject({
      sender_email: 'welcome-bot@zulip.com',
      type: 'private',
      content:
        '<p>The administrators for this organization would also like to share the following information:</p>\n<p>Welcome, read <strong>this</strong>.</p>',
    });
  });

  it('refuses members and empty text', async () => {
    expect(
      (await t.as('hamlet').post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'x' })).body,
    ).toEqual(adminOnly);
    expect(
      (await t.as('iago').post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: '' })).body,
    ).toEqual(error('BAD_REQUEST', 'Message must not be empty'));
  });
});

describe('POST /realm/deactivate', () => {
  it('tells everyone, then refuses every request until the control API reactivates it', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm']);
    expect((await t.as('desdemona').post('/realm/deactivate', { deletion_delay_days: 30 })).body).toEqual({
      result: 'success',
      msg: '',
    });
    const polled = await t.as('hamlet').get('/events', { queue_id: queue, last_event_id: -1, dont_block: true });
    expect(polled.status).toBe(401);
    expect(polled.body).toEqual(error('UNAUTHORIZED', 'This organization has been deactivated'));
    for (const who of ['desdemona', 'iago-bot'])
      expect((await t.as(who).get('/users/me')).body).toEqual(
        error('UNAUTHORIZED', 'This organization has been deactivated'),
      );
    await control.reactivateRealm();
    expect((await t.as('hamlet').get('/users/me')).status).toBe(200);
    const events = strip(
      (await t.as('hamlet').get('/events', { queue_id: queue, last_event_id: -1, dont_block: true })).body.events,
    );
    expect(events).toContainEqual({ type: 'realm', op: 'deactivated', realm_id: expect.any(Number) });
  });

  it('refuses every login with REALM_DEACTIVATED, whatever the password; a deactivated account is reported first', async () => {
    expect((await t.as('iago').delete('/users/5')).status).toBe(200); // Othello
    await t.as('desdemona').post('/realm/deactivate', {});
    const realmGone = error('REALM_DEACTIVATED', 'This organization has been deactivated');
    for (const password of ['password_hamlet', 'wrong']) {
      const r = await t.anonymous().post('/fetch_api_key', { username: 'hamlet@zulip.com', password });
      expect([r.status, r.body]).toEqual([401, realmGone]);
    }
    const dev = await t.anonymous().post('/dev_fetch_api_key', { username: 'hamlet@zulip.com' });
    expect([dev.status, dev.body]).toEqual([401, realmGone]);
    const othello = await t.anonymous().post('/fetch_api_key', { username: 'othello@zulip.com', password: 'x' });
    expect(othello.body).toEqual(error('USER_DEACTIVATED', 'Account is deactivated'));
    const nobody = await t.anonymous().post('/fetch_api_key', { username: 'nobody@zulip.com', password: 'x' });
    expect(nobody.body).toEqual(error('AUTHENTICATION_FAILED', 'Your username or password is incorrect'));
  });

  it('is for owners, with a delay of at least 14 days; a reset reactivates', async () => {
    expect((await t.as('iago').post('/realm/deactivate', {})).body).toEqual(ownerOnly);
    expect((await t.as('desdemona').post('/realm/deactivate', { deletion_delay_days: 13 })).body).toEqual(
      error('BAD_REQUEST', 'Data deletion time must be at least 14 days in the future.'),
    );
    expect((await t.as('hamlet').get('/users/me')).status).toBe(200);
    await t.as('desdemona').post('/realm/deactivate', {});
    expect((await t.as('hamlet').get('/users/me')).status).toBe(401);
    await control.reset();
    expect((await t.as('hamlet').get('/users/me')).status).toBe(200);
  });
});
