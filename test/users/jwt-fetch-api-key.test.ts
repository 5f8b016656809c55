// POST /jwt/fetch_api_key: a token signed with --jwt-key (HS256) gives the API key of the account
// its email claim names; the real server's errors for everything else, and the answer of a
// server without JWT login.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';

const KEY = 'a shared secret of the test';
let t: TestServer;
let bare: TestServer;
beforeAll(async () => {
  t = await startTestServer({ services: { jwtKey: KEY } });
  bare = await startTestServer();
});
afterAll(async () => {
  await t.close();
  await bare.close();
});

const sign = (claims: Record<string, unknown>, key = KEY, alg = 'HS256') =>
  new SignJWT(claims).setProtectedHeader({ alg }).sign(new TextEncoder().encode(key));
const fetchKey = (params: Record<string, unknown>, server = t) => server.anonymous().post('/jwt/fetch_api_key', params);

describe('POST /jwt/fetch_api_key', () => {
  it("answers the API key of the account the token's email names, with its user object on request", async () => {
    const hamlet = t.user('hamlet');
    const r = await fetchKey({ token: await sign({ email: 'Hamlet@Zulip.com' }) });
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      api_key: hamlet.api_key,
      email: 'hamlet@zulip.com',
    });
    const withProfile = await fetchKey({ token: await sign({ email: 'hamlet@zulip.com' }), include_profile: true });
    expect(withProfile.body.user).toMatchObject({
      user_id: hamlet.user_id,
      full_name: hamlet.full_name,
      email: hamlet.email,
    });
    expect(withProfile.body.user).not.toHaveProperty('profile_data');
    // The key answered is the one that authenticates.
    expect((await t.as('hamlet').get('/users/me')).body.user_id).toBe(hamlet.user_id);
  });

  it('refuses a missing, malformed, wrongly signed, expired or not yet valid token, and one without email', async () => {
    const now = t.server.clock.now();
    expectError(await fetchKey({}), 400, 'BAD_REQUEST', 'No JSON web token passed in request');
    expectError(await fetchKey({ token: '' }), 400, 'BAD_REQUEST', 'No JSON web token passed in request');
    expectError(await fetchKey({ token: 'not.a.token' }), 400, 'BAD_REQUEST', 'Bad JSON web token');
    expectError(
      await fetchKey({ token: await sign({ email: 'hamlet@zulip.com' }, 'another key') }),
      400,
      'BAD_REQUEST',
      'Bad JSON web token',
    );
    expectError(
      await fetchKey({ token: await sign({ email: 'hamlet@zulip.com' }, KEY, 'HS512') }),
      400,
      'BAD_REQUEST',
      'Bad JSON web token',
    );
    // An unsigned token (alg "none") is no way around the key.
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ email: 'hamlet@zulip.com' })}.`;
    expectError(await fetchKey({ token: unsigned }), 400, 'BAD_REQUEST', 'Bad JSON web token');
    expectError(
      await fetchKey({ token: await sign({ email: 'hamlet@zulip.com', exp: now - 60 }) }),
      400,
      'BAD_REQUEST',
      'Bad JSON web token',
    );
    expectError(
      await fetchKey({ token: await sign({ email: 'hamlet@zulip.com', nbf: now + 3600 }) }),
      400,
      'BAD_REQUEST',
      'Bad JSON web token',
    );
    expectError(
      await fetchKey({ token: await sign({ sub: 'hamlet' }) }),
      400,
      'BAD_REQUEST',
      'No email specified in JSON web token claims',
    );
  });

  it('judges exp on the mock clock', async () => {
    const token = await sign({ email: 'hamlet@zulip.com', exp: t.server.clock.now() + 60 });
    expect((await fetchKey({ token })).status).toBe(200);
    t.server.clock.advance(120_000);
    expectError(await fetchKey({ token }), 400, 'BAD_REQUEST', 'Bad JSON web token');
  });

  it('answers 401 for an unknown or deactivated account', async () => {
    expectError(
      await fetchKey({ token: await sign({ email: 'nobody@zulip.com' }) }),
      401,
      'AUTHENTICATION_FAILED',
      'Your username or password is incorrect',
    );
    expectError(
      await fetchKey({ token: await sign({ email: 'ariel@zulip.com' }) }),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
  });

  it('answers as a server without JWT login when the mock has no --jwt-key, at every level', async () => {
    expectError(
      await fetchKey({ token: await sign({ email: 'hamlet@zulip.com' }) }, bare),
      400,
      'BAD_REQUEST',
      'JWT authentication is not enabled for this organization',
    );
    // Older than its documentation (level 160): a 10.2 server and older ones route it too.
    const old = await new Client(t.base, null, { 'X-Mock-Feature-Level': '100' }).post('/jwt/fetch_api_key', {
      token: await sign({ email: 'hamlet@zulip.com' }),
    });
    expect(old.status).toBe(200);
  });
});
