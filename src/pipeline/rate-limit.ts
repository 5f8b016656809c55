// The real server's per-user API rate limit, on each world's mock clock. Every authenticated
// answer carries X-RateLimit-Limit / -Remaining / -Reset as the real server's middleware sets
// them; with enforcement on (--rate-limit), a user past the limit gets 429 RATE_LIMIT_HIT.
import type { Call } from './call.js';
import { rateLimitHit } from '../errors.js';
import type { World } from '../world.js';
import { addAnswerHeaders } from '../http/answer-headers.js';

/** The real server's default rule for authenticated API requests ("api_by_user"): 200 a minute. */
const API_CALLS_PER_WINDOW = 200;
const WINDOW_MS = 60_000;
const LIMIT_TEXT = String(API_CALLS_PER_WINDOW);

/**
 * The times (mock-clock ms) of a user's latest accepted requests, oldest first, at most as many
 * as the limit: like the real server's sliding log, a request is refused while the oldest of
 * the last 200 is less than a minute old, and a refused request is not counted.
 */
export class CallLog {
  private readonly times: number[] = [];
  /**
   * How many neighbouring times are out of order (the mock clock set back): while none are, the
   * times are sorted, and the calls of the last minute are found by halving rather than by a
   * walk back over up to 200 times on every request.
   */
  private descents = 0;

  /** Seconds until one more call is allowed (0: allowed now). */
  secondsToFreedom(now: number): number {
    if (this.times.length < API_CALLS_PER_WINDOW) return 0;
    const freeAt = this.times[0] + WINDOW_MS;
    return freeAt >= now ? Math.max(freeAt - now, 1) / 1000 : 0;
  }

  record(now: number): void {
    const n = this.times.length;
    if (n && !(now >= this.times[n - 1])) this.descents++;
    this.times.push(now);
    if (this.times.length > API_CALLS_PER_WINDOW) {
      if (!(this.times[1] >= this.times[0])) this.descents--;
      this.times.shift();
    }
  }

  /** Calls still allowed in the window, and the mock-clock ms when the window is empty again. */
  state(now: number): { remaining: number; resetMs: number } {
    const times = this.times;
    const after = now - WINDOW_MS;
    // The calls counted: the newest ones, back to the first older than a minute.
    let recent = 0;
    if (this.descents === 0) {
      // Sorted: they are the times from the first one newer than a minute on.
      let lo = 0;
      let hi = times.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (times[mid] > after) hi = mid;
        else lo = mid + 1;
      }
      recent = times.length - lo;
    } else for (let i = times.length - 1; i >= 0 && times[i] > after; i--) recent++;
    const newest = times.length ? times[times.length - 1] : now;
    return { remaining: Math.max(API_CALLS_PER_WINDOW - recent, 0), resetMs: Math.max(newest + WINDOW_MS, now) };
  }
}

/**
 * The "authenticated" hook: counts the caller's request in its world and sets the rate-limit
 * headers on the response (they stay on whatever answer follows, an error included); with
 * `enforce`, throws RATE_LIMIT_HIT for a user over the limit. Each world (sandbox) keeps its own counts.
 */
export function rateLimiter(options: { enforce: boolean }): (call: Call) => void {
  const logs = new WeakMap<World, Map<number, CallLog>>();
  return ({ world, actor, res }) => {
    const userId = actor!.user_id;
    let users = logs.get(world);
    if (!users) logs.set(world, (users = new Map()));
    let log = users.get(userId);
    if (!log) users.set(userId, (log = new CallLog()));
    const now = world.clock.nowMs();
    const wait = options.enforce ? log.secondsToFreedom(now) : 0;
    if (!wait) log.record(now);
    const { remaining, resetMs } = log.state(now);
    addAnswerHeaders(res, {
      'X-RateLimit-Limit': LIMIT_TEXT,
      'X-RateLimit-Remaining': String(wait ? 0 : remaining),
      'X-RateLimit-Reset': String(Math.floor((wait ? now + wait * 1000 : resetMs) / 1000)),
    });
    if (wait) throw rateLimitHit(wait);
  };
}
