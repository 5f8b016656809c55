// POST /dev_fetch_api_key and GET /dev_list_users: the development server's login without a
// password, on by default, refused as on a production server with devLogin: false (--no-dev-login).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';

let t: TestServer;
let production: TestServer;
beforeAll(async () => {
  [t, production] = await Promise.all([startTestServer(), startTestServer({ devLogin: false })]);
});
afterAll(async () => {
  await Promise.all([t.close(), production.close()]);
});

describe('POST /dev_fetch_api_key', () => {
  it('gives any account its API key from the address alone, and the key works', async () => {
    const r = await t.anonymous().post('/dev_fetch_api_key', { username: 'Hamlet@zulip.com' });
    const hamlet = t.user('hamlet');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      api_key: hamlet.api_key,
      email: 'hamlet@zulip.com',
      user_id: hamlet.user_id,
    });
    const me = await t.as('hamlet').get('/users/me');
    expect(me.body.user_id).toBe(hamlet.user_id);
  });

  it('lets a bot of the organization in, but not a system bot', async () => {
    const bot = await t.anonymous().post('/dev_fetch_api_key', { username: 'hamlet-bot@zulip.com' });
    expect(bot.body.api_key).toBe(t.user('hamlet-bot').api_key);
    expectError(
      await t.anonymous().post('/dev_fetch_api_key', { username: 'notification-bot@zulip.com' }),
      401,
      'AUTHENTICATION_FAILED',
      'Your username or password is incorrect',
    );
  });

  it('refuses an unknown address, a deactivated account, a username that is not an address and no username', async () => {
    expectError(
      await t.anonymous().post('/dev_fetch_api_key', { username: 'nobody@zulip.com' }),
      401,
      'AUTHENTICATION_FAILED',
      'Your username or password is incorrect',
    );
    expectError(
      await t.anonymous().post('/dev_fetch_api_key', { username: 'ariel@zulip.com' }),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
    expectError(
      await t.anonymous().post('/dev_fetch_api_key', { username: 'iago' }),
      400,
      'BAD_REQUEST',
      'Enter a valid email address.',
    );
    expectError(
      await t.anonymous().post('/dev_fetch_api_key', {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'username' argument",
    );
  });

  it('gives user_id only from FL 171', async () => {
    const r = await t.anonymous().call('POST', '/dev_fetch_api_key', { username: 'iago@zulip.com' });
    expect(r.body.user_id).toBe(t.user('iago').user_id);
    const old = await fetch(`${t.base}/api/v1/dev_fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-mock-feature-level': '170' },
      body: 'username=iago%40zulip.com',
    });
    expect(await old.json()).toEqual({
      result: 'success',
      msg: '',
      api_key: t.user('iago').api_key,
      email: 'iago@zulip.com',
    });
  });
});

describe('GET /dev_list_users', () => {
  it('lists the active human accounts by address, administrators and owners apart', async () => {
    const r = await t.anonymous().get('/dev_list_users');
    expect(r.status).toBe(200);
    const url = t.server.world.store.realm.url;
    const emails = (list: any[]) => list.map((u) => u.email);
    expect(emails(r.body.direct_admins)).toEqual(['desdemona@zulip.com', 'iago@zulip.com']);
    expect(emails(r.body.direct_users)).toEqual([
      'aaron@zulip.com',
      'cordelia@zulip.com',
      'hamlet@zulip.com',
      'othello@zulip.com',
      'polonius@zulip.com',
      'prospero@zulip.com',
      'shiva@zulip.com',
    ]);
    expect(r.body.direct_users[0]).toEqual({ email: 'aaron@zulip.com', realm_url: url });
  });

  it('names the organization realm_uri before FL 257', async () => {
    const old = await fetch(`${t.base}/api/v1/dev_list_users`, { headers: { 'x-mock-feature-level': '256' } });
    const body = await old.json();
    expect(body.direct_admins[0]).toEqual({ email: 'desdemona@zulip.com', realm_uri: t.server.world.store.realm.url });
  });
});

describe('with devLogin: false (--no-dev-login)', () => {
  it('refuses both as a production server does, and server_settings says dev login is off', async () => {
    const refused = (res: any) => expectError(res, 400, 'BAD_REQUEST', 'Endpoint not available in production.');
    refused(await production.anonymous().post('/dev_fetch_api_key', { username: 'iago@zulip.com' }));
    refused(await production.anonymous().get('/dev_list_users'));
    expect((await production.anonymous().get('/server_settings')).body.authentication_methods.dev).toBe(false);
    expect((await t.anonymous().get('/server_settings')).body.authentication_methods.dev).toBe(true);
  });
});
