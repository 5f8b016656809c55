// The real server's email_change_by_user limit on PATCH /settings `email` (2 an hour, 5 a day per
// user), enforced with --rate-limit only, on the world's mock clock.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';

let t: TestServer;
afterEach(async () => {
  await t.close();
});

const control = (path: string, body: unknown) =>
  fetch(`${t.base}/__mock${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());
const advance = (ms: number) => control('/clock', { advance_ms: ms });
const change = (who: string, email: string) => t.as(who).patch('/settings', { email });
const ok = { result: 'success', msg: '' };
const limited = (retryAfter: number) =>
  error('RATE_LIMIT_HIT', 'API usage exceeded rate limit', { 'retry-after': retryAfter });

describe('--rate-limit: email_change_by_user', () => {
  it('allows 2 changes an hour, then answers 429 with the seconds until the hourly rule frees one', async () => {
    t = await startTestServer({ rateLimit: true });
    await control('/clock', { set_ms: 1_800_000_000_000, freeze: true });
    expect((await change('hamlet', 'a1@example.com')).body).toEqual(ok);
    expect((await change('hamlet', 'a2@example.com')).body).toEqual(ok);
    await advance(600_000);
    const refused = await change('hamlet', 'a3@example.com');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(limited(3000));
    expect(refused.headers.get('retry-after')).toBe('3000');
    // The refused attempt started nothing.
    expect(t.user('hamlet').pending_email).toBe('a2@example.com');
    // An address that fails its checks is refused as such, and is not counted either.
    expect((await change('hamlet', 'othello@zulip.com')).body).toEqual(error('BAD_REQUEST', 'Already has an account.'));
    // Another user has a count of their own.
    expect((await change('othello', 'moor@example.com')).body).toEqual(ok);
    await advance(3_000_000);
    // Exactly an hour after the first two, the rule still holds them (the real window is inclusive).
    expect((await change('hamlet', 'a3@example.com')).body).toEqual(limited(0));
    await advance(1);
    expect((await change('hamlet', 'a3@example.com')).body).toEqual(ok);
  });

  it('allows 5 changes a day: the sixth waits for the oldest to be a day old', async () => {
    t = await startTestServer({ rateLimit: true });
    await control('/clock', { set_ms: 1_800_000_000_000, freeze: true });
    const hour = 3_600_000;
    let n = 0;
    const next = () => change('cordelia', `c${++n}@example.com`);
    // 2 now, 2 an hour later, 1 an hour after that: 5 in a little over two hours.
    expect((await next()).body).toEqual(ok);
    expect((await next()).body).toEqual(ok);
    await advance(hour + 1);
    expect((await next()).body).toEqual(ok);
    expect((await next()).body).toEqual(ok);
    await advance(hour + 1);
    expect((await next()).body).toEqual(ok);
    // The hourly rule is kept (one change in the last hour); the daily one is broken.
    const refused = await next();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(limited((24 * hour - 2 * (hour + 1)) / 1000));
    expect(refused.headers.get('retry-after')).toBe(String(Math.ceil((24 * hour - 2 * (hour + 1)) / 1000)));
    await advance(24 * hour - 2 * (hour + 1) + 1);
    expect((await change('cordelia', 'c6@example.com')).body).toEqual(ok);
  });

  it('does not limit email changes without --rate-limit', async () => {
    t = await startTestServer();
    for (let i = 1; i <= 7; i++) expect((await change('hamlet', `h${i}@example.com`)).body).toEqual(ok);
    expect(t.user('hamlet').pending_email).toBe('h7@example.com');
  });
});
