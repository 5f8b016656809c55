// The topic visibility policy a send gives the sender (and mentioned users), from their settings
// automatically_follow_topics_policy, automatically_unmute_topics_in_muted_streams_policy and
// automatically_follow_topics_where_mentioned.
import type { Store } from '../../store/store.js';
import { subscriptionKey, userTopicKey } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import { Visibility } from './set-visibility.js';

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
export function senderVisibilityAfterSend(
  store: Store,
  sender: User,
  streamId: number,
  topic: string,
  initiated: boolean,
): number | null {
  if (sender.is_bot) return null;
  const current = currentVisibility(store, sender.user_id, streamId, topic);
  if (current === Visibility.followed) return null;
  if (appliesTo(sender.settings.automatically_follow_topics_policy, initiated)) return Visibility.followed;
  const channelMuted = store.subscriptions.get(subscriptionKey(sender.user_id, streamId))?.is_muted ?? false;
  if (
    channelMuted &&
    current !== Visibility.unmuted &&
    appliesTo(sender.settings.automatically_unmute_topics_in_muted_streams_policy, initiated)
  ) {
    return Visibility.unmuted;
  }
  return null;
}

/**
 * The new policy for a user who reacts to a channel message, or null when it stays: only the
 * "on participation" policies apply to reacting, and they only ever make a topic more visible.
 */
export function reactorVisibilityAfterReaction(store: Store, user: User, message: Message): number | null {
  if (message.type !== 'stream' || user.is_bot) return null;
  const sub = store.subscriptions.get(subscriptionKey(user.user_id, message.stream_id!));
  if (!sub) return null;
  let policy: number | null = null;
  if (user.settings.automatically_follow_topics_policy === Auto.onParticipation) policy = Visibility.followed;
  if (sub.is_muted && user.settings.automatically_unmute_topics_in_muted_streams_policy === Auto.onParticipation)
    policy = Visibility.unmuted;
  const current = currentVisibility(store, user.user_id, message.stream_id!, message.topic);
  return policy === null || policy === current || current === Visibility.followed ? null : policy;
}
