// The `subscription` part of the registration state: the client's subscriptions as
// GET /users/me/subscriptions lists them, and the channels it may see but is not subscribed to.
// The mock keeps no history of past subscriptions, so `unsubscribed` is always empty and every
// other visible channel is `never_subscribed`. Archived channels only for clients with the
// archived_channels capability.
import type { Ctx } from '../context.js';
import { channelActivity } from '../channels/activity.js';
import { hasMetadataAccess, isSubscribed, subscriberIds } from '../channels/access.js';
import { streamToDict } from '../channels/stream-dict.js';
import { listSubscriptions, type IncludeSubscribers } from '../subscriptions/list.js';

export function subscriptionState(ctx: Ctx, include: IncludeSubscribers, archivedChannels: boolean): Record<string, unknown> {
  const { store, actor } = ctx;
  const shown = (streamId: unknown) => archivedChannels || !store.streams.get(streamId as number)?.is_archived;
  const subscriptions = listSubscriptions(ctx, include).subscriptions.filter((s) => shown(s.stream_id));
  const activity = channelActivity(store, ctx.clock.now());
  const neverSubscribed = store.streams
    .filter((s) => shown(s.stream_id) && !isSubscribed(store, actor.user_id, s.stream_id) && hasMetadataAccess(store, actor, s))
    .map((s) => ({ ...streamToDict(store, s, activity), ...(include !== false ? { subscribers: subscriberIds(store, s.stream_id) } : {}) }));
  return { subscriptions, unsubscribed: [], never_subscribed: neverSubscribed };
}
