// The password-attempt limiter remembers every user name tried: its table is bounded per world,
// the names tried longest ago forgotten first, so a client trying name after name cannot grow it
// without end. Driven through the limiter's hooks with a small bound (the real one is 10,000).
import { describe, expect, it } from 'vitest';
import { loginLimiter } from '../../src/pipeline/login-limit.js';
import { ApiError } from '../../src/errors.js';
import type { Call } from '../../src/pipeline/call.js';

const world = { clock: { nowMs: () => 1_000_000 } };
const attempt = (hooks: ReturnType<typeof loginLimiter>, username: string): number => {
  const call = { op: { id: 'fetch-api-key' }, params: { username }, world } as unknown as Call;
  try {
    for (const hook of hooks.beforeHandle) hook(call);
    return 401;
  } catch (err) {
    return (err as ApiError).status;
  }
};

describe('login limiter bound', () => {
  it('limits a name, and forgets the name tried longest ago once the table is full', () => {
    const hooks = loginLimiter(3);
    for (let i = 0; i < 5; i++) expect(attempt(hooks, 'a@zulip.com')).toBe(401);
    expect(attempt(hooks, 'a@zulip.com')).toBe(429);
    attempt(hooks, 'b@zulip.com');
    attempt(hooks, 'c@zulip.com');
    // Still limited: the table holds three names.
    expect(attempt(hooks, 'a@zulip.com')).toBe(429);
    attempt(hooks, 'd@zulip.com');
    // A fourth name made room by forgetting the name counted longest ago: a (refused attempts do not count).
    expect(attempt(hooks, 'a@zulip.com')).toBe(401);
  });

  it('keys a very long name by its hash and still limits it', () => {
    const hooks = loginLimiter(3);
    const long = 'x'.repeat(100_000);
    for (let i = 0; i < 5; i++) expect(attempt(hooks, long)).toBe(401);
    expect(attempt(hooks, long)).toBe(429);
    expect(attempt(hooks, `${long}y`)).toBe(401);
  });
});
