// The real server's limit on password attempts (RATE_LIMITING_RULES "authenticate_by_username":
// 5 attempts in 30 minutes for one user name), enforced with --rate-limit on each world's mock
// clock. As there, every attempt counts (keyed by the user name exactly as sent), a refused
// attempt does not, the sixth within the window answers 429 RATE_LIMIT_HIT before the password
// is looked at, and a successful login forgets the name's history.
import type { Call } from './call.js';
import type { PipelineHooks } from './hooks.js';
import { rateLimitHit } from './rate-limit.js';
import type { World } from '../world.js';

const ATTEMPTS_PER_WINDOW = 5;
const WINDOW_MS = 1_800_000;
/** The password login; the development login takes no password and is not limited. */
const LOGIN_OPERATION = 'fetch-api-key';

/** The limiter's two hooks: count (and refuse) before the view, forget after a success. */
export function loginLimiter(): Pick<PipelineHooks, 'beforeHandle' | 'afterRespond'> {
  const attempts = new WeakMap<World, Map<string, number[]>>();
  const usernameOf = (call: Call) =>
    call.op.id === LOGIN_OPERATION && !call.decodeError ? String(call.params?.username ?? '') : null;
  const logOf = (world: World) => {
    let log = attempts.get(world);
    if (!log) attempts.set(world, (log = new Map()));
    return log;
  };
  return {
    beforeHandle: [
      (call) => {
        const username = usernameOf(call);
        if (username === null) return null;
        const now = call.world.clock.nowMs();
        const log = logOf(call.world);
        const times = (log.get(username) ?? []).filter((t) => t > now - WINDOW_MS);
        if (times.length >= ATTEMPTS_PER_WINDOW) throw rateLimitHit((times[0] + WINDOW_MS - now) / 1000);
        times.push(now);
        log.set(username, times);
        return null;
      },
    ],
    afterRespond: [
      (call) => {
        const username = usernameOf(call);
        if (username !== null && call.answer?.status === 200) logOf(call.world).delete(username);
      },
    ],
  };
}
