// The real server's limit on password attempts (RATE_LIMITING_RULES "authenticate_by_username":
// 5 attempts in 30 minutes for one user name), enforced with --rate-limit on each world's mock
// clock. As there, every attempt counts (keyed by the user name exactly as sent), a refused
// attempt does not, the sixth within the window answers 429 RATE_LIMIT_HIT before the password
// is looked at, and a successful login forgets the name's history.
//
// Each name tried is remembered, so a client trying name after name would grow the table without
// end: it holds at most MAX_NAMES per world (the names tried longest ago go first), and a
// long name is kept as its hash.
import { createHash } from 'node:crypto';
import type { Call } from './call.js';
import type { PipelineHooks } from './hooks.js';
import { rateLimitHit } from '../errors.js';
import type { World } from '../world.js';

const ATTEMPTS_PER_WINDOW = 5;
const WINDOW_MS = 1_800_000;
/** The password login; the development login takes no password and is not limited. */
const LOGIN_OPERATION = 'fetch-api-key';
/** Names with a history, per world; past it the oldest histories are forgotten. */
const MAX_NAMES = 10_000;
/** A name longer than this is kept as its SHA-256 (no email address is this long). */
const MAX_KEPT_NAME = 256;

const keyOf = (username: string) =>
  username.length <= MAX_KEPT_NAME ? username : `sha256:${createHash('sha256').update(username).digest('hex')}`;

/**
 * Before a new name is added: forgets the histories at the front of the map (the names tried
 * longest ago) while they have expired or the map is full. Amortized, a step per name added.
 */
function makeRoom(log: Map<string, number[]>, now: number, maxNames: number): void {
  for (const [name, times] of log) {
    if (log.size < maxNames && times[times.length - 1] > now - WINDOW_MS) break;
    log.delete(name);
  }
}

/** The limiter's two hooks: count (and refuse) before the view, forget after a success. */
export function loginLimiter(maxNames = MAX_NAMES): Pick<PipelineHooks, 'beforeHandle' | 'afterRespond'> {
  const attempts = new WeakMap<World, Map<string, number[]>>();
  const usernameOf = (call: Call) =>
    call.op.id === LOGIN_OPERATION && !call.decodeError ? keyOf(String(call.params?.username ?? '')) : null;
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
        // Deleted and set again: the map's order is the order names were last tried in.
        if (!log.delete(username)) makeRoom(log, now, maxNames);
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
