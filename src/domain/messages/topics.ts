// Topic rules for channel messages: the empty-topic aliases, the channel's (or organization's)
// topics policy, and who took part in a topic.
import { badRequest } from '../../errors.js';
import { topicKey, type Store } from '../../store/store.js';
import type { Stream } from '../../store/state.js';

/** What a resolved topic's name starts with (the real server's RESOLVED_TOPIC_PREFIX). */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/**
 * The topic as stored. The empty topic exists from FL 334 (and the empty-topic display name
 * means it); `(no topic)` means it from FL 370, before which it was an ordinary name.
 */
export function normalizeTopic(
  topic: string,
  emptyTopicDisplayName: string,
  supports: (behaviour: string) => boolean = () => true,
): string {
  const trimmed = topic.trim();
  if (!supports('empty_topic_allowed')) {
    if (!trimmed) throw badRequest("Topic can't be empty!");
    return trimmed;
  }
  if (trimmed === emptyTopicDisplayName) return '';
  return trimmed === '(no topic)' && supports('no_topic_means_empty') ? '' : trimmed;
}

/** A channel whose policy is `inherit` follows the organization's realm_topics_policy. */
export function effectiveTopicsPolicy(store: Store, stream: Stream): string {
  return stream.topics_policy === 'inherit' ? store.realm.topics_policy : stream.topics_policy;
}

export function checkTopicPolicy(store: Store, stream: Stream, topic: string, displayName: string): void {
  const policy = effectiveTopicsPolicy(store, stream);
  if (policy === 'disable_empty_topic' && topic === '') {
    throw badRequest(`Sending messages to the ${displayName} is not allowed in this channel.`);
  }
  if (policy === 'empty_topic_only' && topic !== '') {
    throw badRequest(`Only the ${displayName} topic is allowed in this channel.`);
  }
}

// Topics compare case-insensitively; store.messages keeps channel messages grouped by topic.
export function topicExists(store: Store, streamId: number, topic: string): boolean {
  return store.messages.group('topic', topicKey(streamId, topic)).size > 0;
}

/** Everyone who sent a message in the topic or reacted to one. */
export function topicParticipants(store: Store, streamId: number, topic: string): Set<number> {
  const ids = new Set<number>();
  for (const m of store.messages.group('topic', topicKey(streamId, topic))) {
    ids.add(m.sender_id);
    for (const r of m.reactions) ids.add(r.user_id);
  }
  return ids;
}
