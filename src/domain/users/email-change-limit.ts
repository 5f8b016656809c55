// The real server's limit on a user's own email address changes (RATE_LIMITING_RULES
// "email_change_by_user": 2 in an hour and 5 in a day), which PATCH /settings applies itself once
// the new address has passed its checks: a refused address does not count, nor does a refused
// attempt. Enforced only with --rate-limit, on the world's mock clock, each world (sandbox)
// counting apart. As the real server's Redis limiter: each user's latest attempts are kept
// (as many as the largest rule allows), the rules are tried in order, and the first one broken
// answers with the seconds until its oldest counted attempt leaves its window.
import { rateLimitHit } from '../../errors.js';
import { DerivedSlot } from '../../store/derived.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';

/** [window in seconds, attempts allowed in it], in the real server's order. */
const RULES: ReadonlyArray<readonly [number, number]> = [
  [3600, 2],
  [86400, 5],
];
const KEPT = Math.max(...RULES.map(([, count]) => count));

/**
 * Each user's latest counted attempts, newest first (mock-clock ms). Kept beside the store as the
 * outbox is: a user's history is at most five numbers, and a world has a bounded set of users.
 */
const ATTEMPTS = new DerivedSlot(() => new Map<number, number[]>());

/** Counts an email change attempt of `user`, or throws RATE_LIMIT_HIT when a rule is broken. */
export function countEmailChange(world: WorldCtx, user: User): void {
  const attempts = attemptsOf(world.store);
  const now = world.clock.nowMs();
  const times = attempts.get(user.user_id) ?? [];
  for (const [windowSeconds, count] of RULES) {
    const nth = times[count - 1];
    if (nth === undefined) continue;
    const freeAt = nth + windowSeconds * 1000;
    if (freeAt >= now) throw rateLimitHit((freeAt - now) / 1000);
  }
  attempts.set(user.user_id, [now, ...times].slice(0, KEPT));
}

const attemptsOf = (store: Store) => store.derived.of(ATTEMPTS);
