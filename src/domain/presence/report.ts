// A client's presence report (POST /users/me/presence): refreshes the user's stored times at most
// once per minimum interval, numbers every change with the organization's next update ID, and
// tells everyone at once when the user comes (back) online, so that a message they send next is
// not shown from someone who looks offline. Later refreshes reach others by their polling.
import type { WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { activeUserIds } from '../users/access.js';
import { apiEmailsByQueueLevel, organizationDisplayEmail } from '../users/email-visibility.js';
import { SERVER_PRESENCE } from './timings.js';
import { legacyClientPresence, modernPresence } from './format.js';

type Presence = NonNullable<User['presence']>;
export type PresenceStatus = 'active' | 'idle';

/** Without earlier activity, a user counts as newly online (a day is more than any threshold). */
const LONG_AGO = 86400;

/** Whether a user whose last activity is this old has missed enough pings to be "back online". */
const cameBackAfter = (secondsSinceActive: number) =>
  secondsSinceActive > SERVER_PRESENCE.offlineThresholdSeconds - SERVER_PRESENCE.pingIntervalSeconds - 10;

export function reportPresence(world: WorldCtx, actor: User, input: { status: PresenceStatus }): void {
  // Invisible mode: the user's reports are not recorded at all.
  if (actor.settings.presence_enabled === false) return;
  const { store } = world;
  const now = world.clock.now();
  const active = input.status === 'active';
  const old = actor.presence;
  let next: Presence | null;
  if (!old) {
    // A first report: connected now, active now or (idle) at joining.
    next = { active_timestamp: active ? now : Math.floor(Date.parse(actor.date_joined) / 1000), idle_timestamp: now };
  } else {
    next = { ...old };
    let changed = false;
    if (now - old.idle_timestamp > SERVER_PRESENCE.minUpdateSeconds) {
      next.idle_timestamp = now;
      changed = true;
    }
    if (active && now - old.active_timestamp > SERVER_PRESENCE.minUpdateSeconds) {
      next.active_timestamp = now;
      next.idle_timestamp = Math.max(next.idle_timestamp, now);
      changed = true;
    }
    if (!changed) next = null;
  }
  if (!next) return;
  next.last_update_id = nextUpdateId(store);
  store.users.update(actor, { presence: next });
  const backOnline = active && cameBackAfter(old ? now - old.active_timestamp : LONG_AGO);
  if (!store.realm.shown_settings?.presence_disabled && (!old || backOnline)) publishPresence(world, actor, next);
}

/** The organization's presence sequence: one more than the newest change. */
function nextUpdateId(store: Store): number {
  let newest = 0;
  for (const u of store.users.all()) newest = Math.max(newest, u.presence?.last_update_id ?? 0);
  return newest + 1;
}

/**
 * The `presence` event in the form each queue asked for: modern (simplified_presence_events),
 * legacy without the email (slim_presence), or legacy with it.
 */
function publishPresence(world: WorldCtx, user: User, p: Presence): void {
  const legacy = {
    type: 'presence',
    user_id: user.user_id,
    email: user.email,
    server_timestamp: world.clock.nowMs() / 1000,
    presence: { website: legacyClientPresence(p) },
  };
  const slim = { ...legacy } as Record<string, unknown>;
  delete slim.email;
  const modern = { type: 'presence', presences: { [String(user.user_id)]: modernPresence(p) } };
  // Below feature level 163 the legacy form's email is the one the organization's setting gives.
  const legacyFor = apiEmailsByQueueLevel(legacy, () => ({
    ...legacy,
    email: organizationDisplayEmail(world.store.realm, user),
  }));
  world.events.publish(activeUserIds(world.store), legacy, (queueId, userId, queue) => {
    if (queue?.capabilities.simplified_presence_events) return modern;
    return queue?.slimPresence ? slim : legacyFor(queueId, userId, queue);
  });
}
