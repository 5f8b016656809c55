// POST /fetch_api_key: logging in with an email address and a password.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;

describe('POST /fetch_api_key', () => {
  it('exchanges the fixture email and password for the API key without authentication', async () => {
    const r = await t.anonymous().post('/fetch_api_key', { username: 'iago@zulip.com', password: 'password_iago' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      api_key: t.user('iago').api_key,
      email: 'iago@zulip.com',
      user_id: id('iago'),
    });
    const me = await t.anonymous().call('GET', '/users/me');
    expect(me.status).toBe(401);
  });

  it('compares the address without regard to case', async () => {
    const r = await t.anonymous().post('/fetch_api_key', { username: 'Hamlet@Zulip.com', password: 'password_hamlet' });
    expect(r.body.user_id).toBe(id('hamlet'));
  });

  it('answers 401 AUTHENTICATION_FAILED for a wrong password, an unknown address and a bot', async () => {
    const failed = (res: any) =>
      expectError(res, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    failed(await t.anonymous().post('/fetch_api_key', { username: 'iago@zulip.com', password: 'wrong' }));
    failed(await t.anonymous().post('/fetch_api_key', { username: 'nobody@zulip.com', password: 'password_iago' }));
    failed(
      await t.anonymous().post('/fetch_api_key', { username: 'iago-bot@zulip.com', password: 'password_iago-bot' }),
    );
  });

  it('answers 401 USER_DEACTIVATED for a deactivated account, whatever the password', async () => {
    for (const password of ['password_ariel', 'wrong']) {
      expectError(
        await t.anonymous().post('/fetch_api_key', { username: 'ariel@zulip.com', password }),
        401,
        'USER_DEACTIVATED',
        'Account is deactivated',
      );
    }
  });

  it('refuses a username that is not an email address and a missing password', async () => {
    expectError(
      await t.anonymous().post('/fetch_api_key', { username: 'iago', password: 'password_iago' }),
      400,
      'BAD_REQUEST',
      'Enter a valid email address.',
    );
    expectError(
      await t.anonymous().post('/fetch_api_key', { username: 'iago@zulip.com' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'password' argument",
    );
  });
});
