// The topic visibility policy a send gives the sender (and mentioned users), from their settings
// automatically_follow_topics_policy, automatically_unmute_topics_in_muted_streams_policy and
// automatically_follow_topics_where_mentioned.
import type { Store } from '../../store/store.js';
import { subscriptionKey, userTopicKey } from '../../store/store.js';
import type { User } from '../../store/state.js';
import type { EventSink } from '../context.js';

export const Visibility = { none: 0, muted: 1, unmuted: 2, followed: 3 } as const;

/** Values of the automatically_* policies. */
const Auto = { onParticipation: 1, onSend: 2, onInitiation: 3, never: 4 } as const;

function appliesTo(policy: number, initiated: boolean): boolean {
  return policy === Auto.onParticipation || policy === Auto.onSend || (policy === Auto.onInitiation && initiated);
}

export function currentVisibility(store: Store, userId: number, streamId: number, topic: string): number {
  return store.userTopics.get(userTopicKey(userId, streamId, topic))?.visibility_policy ?? Visibility.none;
}

/**
 * The new policy for the sender of a channel message, or null when it stays. `initiated`: the
 * message is the first one in its topic.
 */
export function senderVisibilityAfterSend(store: Store, sender: User, streamId: number, topic: string, initiated: boolean): number | null {
  if (sender.is_bot) return null;
  const current = currentVisibility(store, sender.user_id, streamId, topic);
  if (current === Visibility.followed) return null;
  if (appliesTo(sender.settings.automatically_follow_topics_policy, initiated)) return Visibility.followed;
  const channelMuted = store.subscriptions.get(subscriptionKey(sender.user_id, streamId))?.is_muted ?? false;
  if (channelMuted && current !== Visibility.unmuted
    && appliesTo(sender.settings.automatically_unmute_topics_in_muted_streams_policy, initiated)) {
    return Visibility.unmuted;
  }
  return null;
}

/** Sets a user's policy for a topic and tells their clients (a `user_topic` event). */
export function setVisibility(store: Store, events: EventSink, userId: number, streamId: number, topic: string, policy: number, now: number): void {
  const existing = store.userTopics.get(userTopicKey(userId, streamId, topic));
  if (existing) store.userTopics.update(existing, { visibility_policy: policy, last_updated: now });
  else store.userTopics.insert({ user_id: userId, stream_id: streamId, topic, visibility_policy: policy, last_updated: now });
  events.publish([userId], { type: 'user_topic', stream_id: streamId, topic_name: topic, last_updated: now, visibility_policy: policy });
}
