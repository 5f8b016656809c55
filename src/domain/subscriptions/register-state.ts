// The `subscription` part of the registration state: the client's subscriptions as
// GET /users/me/subscriptions lists them, the channels it left (`unsubscribed`, with the settings
// it had) and the other channels it may see (`never_subscribed`). Archived channels only for
// clients with the archived_channels capability.
import type { Ctx } from '../context.js';
import { subscriptionKey } from '../../store/store.js';
import { channelActivity } from '../channels/activity.js';
import { hasMetadataAccess, isSubscribed, subscriberIds } from '../channels/access.js';
import { streamToDict } from '../channels/stream-dict.js';
import { listSubscriptions, type IncludeSubscribers } from './list.js';
import { subscriptionToDict } from '../channels/subscription-dict.js';

export function subscriptionState(
  ctx: Ctx,
  include: IncludeSubscribers,
  archivedChannels: boolean,
): Record<string, unknown> {
  const { store, actor } = ctx;
  const shown = (streamId: unknown) => archivedChannels || !store.streams.get(streamId as number)?.is_archived;
  const subscriptions = listSubscriptions(ctx, include, archivedChannels).subscriptions;
  const activity = channelActivity(store, ctx.clock.now());
  const withSubscribers = (streamId: number) =>
    include !== false ? { subscribers: subscriberIds(store, streamId) } : {};
  const unsubscribed: Record<string, unknown>[] = [];
  const neverSubscribed: Record<string, unknown>[] = [];
  for (const s of store.streams.all()) {
    if (!shown(s.stream_id) || isSubscribed(store, actor.user_id, s.stream_id) || !hasMetadataAccess(store, actor, s))
      continue;
    const former = store.formerSubscriptions.get(subscriptionKey(actor.user_id, s.stream_id));
    if (former)
      unsubscribed.push({ ...subscriptionToDict(store, former, s, activity), ...withSubscribers(s.stream_id) });
    else neverSubscribed.push({ ...streamToDict(store, s, activity), ...withSubscribers(s.stream_id) });
  }
  return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
}
