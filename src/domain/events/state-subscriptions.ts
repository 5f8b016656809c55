// The `subscription` part of the registration state: the client's subscriptions (in the shape of
// GET /users/me/subscriptions, from the subscriptions area's serializer), and the channels it
// may see but is not subscribed to. The mock keeps no history of past subscriptions, so
// `unsubscribed` is always empty and every other visible channel is `never_subscribed`.
import type { Ctx } from '../context.js';
import { channelActivity } from '../channels/activity.js';
import { hasMetadataAccess, isSubscribed, subscriberIds } from '../channels/access.js';
import { streamToDict } from '../channels/stream-dict.js';
import { subscriptionToDict } from '../subscriptions/subscription-dict.js';

export function subscriptionState(ctx: Ctx, includeSubscribers: boolean | 'partial', archivedChannels: boolean): Record<string, unknown> {
  const { store, actor } = ctx;
  const activity = channelActivity(store, ctx.clock.now());
  const withSubscribers = (dict: Record<string, unknown>, streamId: number) =>
    includeSubscribers ? { ...dict, subscribers: subscriberIds(store, streamId) } : dict;
  const shown = store.streams.filter((s) => archivedChannels || !s.is_archived);
  const subscriptions = store.subscriptions
    .filter((sub) => sub.user_id === actor.user_id)
    .map((sub) => ({ sub, stream: store.streams.get(sub.stream_id) }))
    .filter(({ stream }) => stream && (archivedChannels || !stream.is_archived))
    .map(({ sub, stream }) => withSubscribers(subscriptionToDict(store, sub, stream!, activity), stream!.stream_id));
  const neverSubscribed = shown
    .filter((s) => !isSubscribed(store, actor.user_id, s.stream_id) && hasMetadataAccess(store, actor, s))
    .map((s) => withSubscribers(streamToDict(store, s, activity), s.stream_id));
  return { subscriptions, unsubscribed: [], never_subscribed: neverSubscribed };
}
