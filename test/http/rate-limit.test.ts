// The real server's per-user API rate limit: the X-RateLimit-* headers on every authenticated
// answer, and with the opt-in enforcement 429 RATE_LIMIT_HIT past 200 requests a minute, on the
// world's mock clock and per world (sandbox).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type CallResult, type TestServer } from '../helpers/server.js';
import { download, TINY_PNG, upload } from '../helpers/uploads.js';

const control = (t: TestServer, path: string, body: unknown, sandbox = 'default') =>
  fetch(`${t.base}/__mock${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mock-sandbox': sandbox },
    body: JSON.stringify(body),
  }).then((r) => r.json());

/** Freezes the world's clock at a whole second and returns it (ms). */
async function freeze(t: TestServer, sandbox = 'default'): Promise<number> {
  const { now_ms } = await control(t, '/clock', { set_ms: 1_800_000_000_000, freeze: true }, sandbox);
  return now_ms;
}

const limits = (r: CallResult) => ({
  limit: r.headers.get('x-ratelimit-limit'),
  remaining: r.headers.get('x-ratelimit-remaining'),
  reset: r.headers.get('x-ratelimit-reset'),
});

async function spend(t: TestServer, who: string, count: number, headers?: Record<string, string>): Promise<CallResult> {
  let last!: CallResult;
  for (let i = 0; i < count; i++) last = await t.as(who, headers).get('/users/me');
  return last;
}

describe('the rate-limit headers (always sent)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('count down on every authenticated answer, errors and reused answers included; Reset is a minute after the last call', async () => {
    const now = await freeze(t);
    const reset = String(Math.floor(now / 1000) + 60);
    expect(limits(await t.as('cordelia').get('/users/me'))).toEqual({ limit: '200', remaining: '199', reset });
    expect(limits(await t.as('cordelia').get('/users/me'))).toEqual({ limit: '200', remaining: '198', reset });
    const bad = await t.as('cordelia').post('/user_topics', { stream_id: 'x', topic: 't', visibility_policy: 1 });
    expect(bad.status).toBe(400);
    expect(limits(bad)).toEqual({ limit: '200', remaining: '197', reset });
    // Another user has a budget of their own.
    expect(limits(await t.as('othello').get('/users/me')).remaining).toBe('199');
  });

  it('are on a file an authenticated user downloads, after the headers of the file', async () => {
    const now = await freeze(t);
    const up = await upload(t, 'iago', [{ name: 'limits.png', bytes: TINY_PNG, type: 'image/png' }]);
    expect(up.status).toBe(200);
    const file = await download(t, 'iago', up.body.url);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(TINY_PNG)).toBe(true);
    expect(file.type).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect({
      limit: file.headers.get('x-ratelimit-limit'),
      remaining: file.headers.get('x-ratelimit-remaining'),
      reset: file.headers.get('x-ratelimit-reset'),
    }).toEqual({ limit: '200', remaining: '198', reset: String(Math.floor(now / 1000) + 60) });
  });

  it('are not sent on an unauthenticated answer', async () => {
    const r = await t.anonymous().get('/server_settings');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('do not refuse anything without --rate-limit: past the limit, Remaining stays at 0', async () => {
    await freeze(t);
    const last = await spend(t, 'prospero', 201);
    expect(last.status).toBe(200);
    expect(limits(last).remaining).toBe('0');
  });
});

describe('--rate-limit (startMockServer { rateLimit: true })', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ rateLimit: true });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await freeze(t);
  });

  it('answers the 201st request of a minute with 429 RATE_LIMIT_HIT, retry-after and Retry-After; time frees it', async () => {
    const now = await freeze(t);
    const last = await spend(t, 'hamlet', 200);
    expect(last.status).toBe(200);
    expect(limits(last).remaining).toBe('0');
    const refused = await t.as('hamlet').get('/users/me');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      result: 'error',
      msg: 'API usage exceeded rate limit',
      code: 'RATE_LIMIT_HIT',
      'retry-after': 60,
    });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(limits(refused)).toEqual({ limit: '200', remaining: '0', reset: String(Math.floor(now / 1000) + 60) });
    // Others, and the same user in another sandbox, are not limited.
    expect((await t.as('iago').get('/users/me')).status).toBe(200);
    expect((await t.as('hamlet', { 'X-Mock-Sandbox': 'rate-elsewhere' }).get('/users/me')).status).toBe(200);
    // A refused request is not counted; half a minute later the wait is half as long.
    await control(t, '/clock', { advance_ms: 30_000 });
    const later = await t.as('hamlet').get('/users/me');
    expect(later.body['retry-after']).toBe(30);
    // Once the calls are a minute old, the budget is whole again.
    await control(t, '/clock', { advance_ms: 30_001 });
    const freed = await t.as('hamlet').get('/users/me');
    expect(freed.status).toBe(200);
    expect(limits(freed).remaining).toBe('199');
    const journal = await (await fetch(`${t.base}/__mock/journal?code=RATE_LIMIT_HIT&limit=5`)).json();
    expect(journal.count).toBe(2);
  });
});

describe('--rate-limit: password attempts per user name (the real authenticate_by_username rule, 5 in 30 minutes)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ rateLimit: true });
  });
  afterAll(async () => {
    await t.close();
  });

  const login = (username: string, password: string) => t.anonymous().post('/fetch_api_key', { username, password });

  it('refuses the sixth attempt within 30 minutes with 429 before looking at the password; time frees it', async () => {
    await freeze(t);
    for (let i = 0; i < 5; i++) expect((await login('othello@zulip.com', 'wrong')).status).toBe(401);
    const refused = await login('othello@zulip.com', 'password_othello');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      result: 'error',
      msg: 'API usage exceeded rate limit',
      code: 'RATE_LIMIT_HIT',
      'retry-after': 1800,
    });
    expect(refused.headers.get('retry-after')).toBe('1800');
    // Another user name has its own count; the refused attempt was not counted.
    expect((await login('cordelia@zulip.com', 'password_cordelia')).status).toBe(200);
    await control(t, '/clock', { advance_ms: 600_000 });
    expect((await login('othello@zulip.com', 'wrong')).body['retry-after']).toBe(1200);
    await control(t, '/clock', { advance_ms: 1_200_001 });
    expect((await login('othello@zulip.com', 'password_othello')).status).toBe(200);
  });

  it("forgets a name's failures after a successful login", async () => {
    await freeze(t);
    for (let i = 0; i < 4; i++) expect((await login('prospero@zulip.com', 'wrong')).status).toBe(401);
    expect((await login('prospero@zulip.com', 'password_prospero')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login('prospero@zulip.com', 'wrong')).status).toBe(401);
    expect((await login('prospero@zulip.com', 'wrong')).status).toBe(429);
  });

  it('does not limit password attempts without --rate-limit', async () => {
    const open = await startTestServer();
    try {
      for (let i = 0; i < 7; i++)
        expect(
          (await open.anonymous().post('/fetch_api_key', { username: 'shiva@zulip.com', password: 'x' })).status,
        ).toBe(401);
    } finally {
      await open.close();
    }
  });
});
