// POST /jwt/fetch_api_key: a token signed with --jwt-key (HS256) gives the API key of the account
// its email claim names; the real server's errors for everything else, and the answer of a
// server without JWT login.
import { createHmac } from 'node:crypto';
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

  it('refuses tokens whose shape, header or time claims jose would refuse, even when well signed', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const signed = (header: object, claims: object) => {
      const unsigned = `${b64(header)}.${b64(claims)}`;
      return `${unsigned}.${createHmac('sha256', KEY).update(unsigned).digest('base64url')}`;
    };
    const email = { email: 'hamlet@zulip.com' };
    const good = signed({ alg: 'HS256' }, email);
    expect((await fetchKey({ token: good })).status).toBe(200);
    for (const token of [
      `${good}.extra`,
      `${good}!`,
      `${good.slice(0, -2)}`,
      signed({ alg: 'HS256', crit: ['exp'], exp: 1 }, email),
      signed({ alg: 'HS256', b64: false, crit: ['b64'] }, email),
      signed({ alg: 'HS256' }, { ...email, exp: 'tomorrow' }),
      signed({ alg: 'HS256' }, { ...email, nbf: '0' }),
      signed({ alg: 'HS256' }, { ...email, iat: 'now' }),
      signed({ alg: 'HS256' }, ['not', 'an', 'object']),
      `${b64({ alg: 'HS256' })}.bm90IGpzb24.${createHmac('sha256', KEY)
        .update(`${b64({ alg: 'HS256' })}.bm90IGpzb24`)
        .digest('base64url')}`,
    ])
      expectError(await fetchKey({ token }), 400, 'BAD_REQUEST', 'Bad JSON web token');
    // exp is past once the clock reaches it; nbf holds from its own second.
    const now = t.server.clock.now();
    expectError(
      await fetchKey({ token: signed({ alg: 'HS256' }, { ...email, exp: now }) }),
      400,
      'BAD_REQUEST',
      'Bad JSON web token',
    );
    expect((await fetchKey({ token: signed({ alg: 'HS256' }, { ...email, nbf: now }) })).status).toBe(200);
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
