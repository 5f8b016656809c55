// GET /users/me/subscriptions: the caller's subscriptions, sorted by channel name, with the
// subscriber lists on request. With include_subscribers=partial, channels of 250 or more
// subscribers get partial_subscribers instead: every bot subscriber and every subscriber active
// in the last 14 days. Archived channels are left out at every level (the real server's
// gather_subscriptions never asks for them, 10.2 through the newest); only POST /register lists
// them, to clients with the archived_channels capability.
import type { Ctx } from '../context.js';
import type { Store } from '../../store/store.js';
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

export function listSubscriptions(
  ctx: Ctx,
  include: IncludeSubscribers,
  archivedChannels = false,
): { subscriptions: Record<string, unknown>[] } {
  const { store, actor } = ctx;
  const now = ctx.clock.now();
  const activity = channelActivity(store, now);
  const out: Record<string, unknown>[] = [];
  for (const sub of store.subscriptions.filter((s) => s.user_id === actor.user_id)) {
    const stream = store.streams.get(sub.stream_id);
    if (!stream || (stream.is_archived && !archivedChannels)) continue;
    const dict = subscriptionToDict(store, sub, stream, activity);
    // Fields only older servers sent (their levels are in the description).
    if (ctx.hasField('Subscription', 'role')) dict.role = 20;
    if (ctx.hasField('Subscription', 'email_address')) dict.email_address = legacyEmailAddress(ctx, stream);
    if (include !== false) {
      const ids = subscriberIds(store, stream.stream_id);
      if (include === 'partial' && ids.length >= FULL_SUBSCRIBER_LIST_BELOW)
        dict.partial_subscribers = partialSubscribers(store, ids, now);
      else dict.subscribers = ids;
    }
    out.push(dict);
  }
  out.sort((a, b) => ((a.name as string) < (b.name as string) ? -1 : (a.name as string) > (b.name as string) ? 1 : 0));
  return { subscriptions: out };
}
