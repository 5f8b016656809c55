// GET /users/me/subscriptions: the caller's subscriptions, sorted by channel name, with the
// subscriber lists on request. With include_subscribers=partial, channels of 250 or more
// subscribers get partial_subscribers instead: every bot subscriber and every subscriber active
// in the last 14 days. Archived channels are left out at every level (the real server's
// gather_subscriptions never asks for them, 10.2 through the newest); only POST /register lists
// them, to clients with the archived_channels capability.
import type { Ctx } from '../context.js';
import type { Store } from '../../store/store.js';
import type { Subscription } from '../../store/state.js';
import { DerivedSlot } from '../../store/derived.js';
import { fragment } from '../../contract/fragments.js';
import { channelActivity } from '../channels/activity.js';
import { subscriberIds } from '../channels/access.js';
import { subscriptionToDict } from '../channels/subscription-dict.js';
import { legacyEmailAddress } from '../channels/email-address.js';

/** Channels below this many subscribers always get the full list. */
const FULL_SUBSCRIBER_LIST_BELOW = 250;
const RECENTLY_ACTIVE_SECONDS = 14 * 86_400;

export type IncludeSubscribers = boolean | 'partial';

function partialSubscribers(store: Store, ids: number[], now: number): number[] {
  return ids.filter((id) => {
    const user = store.users.get(id)!;
    return user.is_bot || user.last_active >= now - RECENTLY_ACTIVE_SECONDS;
  });
}

/**
 * Everything a subscription's dict shows besides its channel's message figures: the channels,
 * the subscriptions (subscriber counts and lists), users (active or not), groups (group
 * settings), the organization, or a whole new state.
 */
const SHOWN_PARTS = ['users', 'streams', 'subscriptions', 'user_groups', 'realm'] as const;

/**
 * Dicts kept per subscription row, so that a list built anew reuses them while nothing they show
 * changed (a part, contract/fragments.ts: never changed once made). The channel's message figures
 * (first message, weekly traffic, recent activity) are in the key: a new message elsewhere keeps them.
 */
const KEPT = new DerivedSlot(() => new WeakMap<Subscription, { key: string; dict: Record<string, unknown> }>());

export function listSubscriptions(
  ctx: Ctx,
  include: IncludeSubscribers,
  archivedChannels = false,
): { subscriptions: Record<string, unknown>[] } {
  const { store, actor } = ctx;
  const now = ctx.clock.now();
  const activity = channelActivity(store, now);
  const out: Record<string, unknown>[] = [];
  // Fields only older servers sent (their levels are in the description).
  const withRole = ctx.hasField('Subscription', 'role');
  const withEmail = ctx.hasField('Subscription', 'email_address');
  // Partial lists depend on the time and the legacy address on the request: those are built each time.
  const keep = include !== 'partial' && !withEmail;
  const kept = store.derived.of(KEPT);
  const stamp = `${store.partsVersion(SHOWN_PARTS)}|${withRole}|${include}`;
  for (const sub of store.subscriptions.group('user', actor.user_id)) {
    const stream = store.streams.get(sub.stream_id);
    if (!stream || (stream.is_archived && !archivedChannels)) continue;
    const key = keep
      ? `${stamp}|${activity.firstMessageId(stream.stream_id)}|${activity.weeklyTraffic(stream)}|${activity.isRecentlyActive(stream)}`
      : '';
    const hit = keep ? kept.get(sub) : undefined;
    if (hit && hit.key === key) {
      out.push(hit.dict);
      continue;
    }
    const dict = subscriptionToDict(store, sub, stream, activity);
    if (withRole) dict.role = 20;
    if (withEmail) dict.email_address = legacyEmailAddress(ctx, stream);
    if (include !== false) {
      const ids = subscriberIds(store, stream.stream_id);
      if (include === 'partial' && ids.length >= FULL_SUBSCRIBER_LIST_BELOW)
        dict.partial_subscribers = partialSubscribers(store, ids, now);
      else dict.subscribers = ids;
    }
    if (keep) kept.set(sub, { key, dict: fragment(dict) });
    out.push(dict);
  }
  out.sort((a, b) => ((a.name as string) < (b.name as string) ? -1 : (a.name as string) > (b.name as string) ? 1 : 0));
  return { subscriptions: out };
}
