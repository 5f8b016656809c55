// The message-derived parts of the registration state: unread messages by conversation (with
// the counts clients show), starred message IDs, recent direct-message conversations, the newest
// message ID and the search's stop words. A user "received" a message when it has flags for them
// (the real server's UserMessage row); each section walks only the user's own messages, or only
// the unread or starred ones (in ID order, from the store's indexes), so that a register costs
// the same however many other messages are stored.
import { STOP_WORDS } from './stop-words.js';
import {
  receivedMessages,
  starredMessages,
  subscriptionKey,
  unreadMessages,
  userTopicKey,
  type Store,
} from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import { maxVisibleMessageId } from '../users/max-visible.js';
import type { TopicShown } from '../context.js';

const WILDCARD_FLAGS = ['wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

/** Members of a direct-message conversation other than `userId` (empty for a note to self). */
const othersIn = (m: Message, userId: number) => m.recipient_ids.filter((id) => id !== userId);

function isMutedFor(store: Store, user: User, m: Message): boolean {
  if (m.type !== 'stream' || m.stream_id === null) return false;
  const sub = store.subscriptions.get(subscriptionKey(user.user_id, m.stream_id));
  const policy = store.userTopics.get(userTopicKey(user.user_id, m.stream_id, m.topic))?.visibility_policy ?? 0;
  if (policy === 1) return true;
  if (policy === 2 || policy === 3) return false;
  return !!sub?.is_muted;
}

/** `unread_msgs`: the user's unread messages grouped as the real server groups them. */
export function unreadState(store: Store, user: User, shown: TopicShown): Record<string, unknown> {
  const key = String(user.user_id);
  const pms = new Map<number, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const huddles = new Map<string, number[]>();
  const mentions: number[] = [];
  let count = 0;
  for (const m of unreadMessages(store, user.user_id)) {
    const flags = m.flags[key];
    const muted = isMutedFor(store, user, m);
    if (flags.includes('mentioned') || (!muted && flags.some((f) => WILDCARD_FLAGS.includes(f)))) mentions.push(m.id);
    if (m.type === 'stream') {
      const k = `${m.stream_id}:${m.topic}`;
      let entry = streams.get(k);
      if (!entry) streams.set(k, (entry = { stream_id: m.stream_id!, topic: shown(m.topic), unread_message_ids: [] }));
      entry.unread_message_ids.push(m.id);
      if (!muted) count++;
      continue;
    }
    count++;
    const others = othersIn(m, user.user_id);
    if (others.length <= 1) {
      const other = others[0] ?? user.user_id;
      const ids = pms.get(other);
      if (ids) ids.push(m.id);
      else pms.set(other, [m.id]);
    } else {
      const members = [...m.recipient_ids].sort((a, b) => a - b).join(',');
      const ids = huddles.get(members);
      if (ids) ids.push(m.id);
      else huddles.set(members, [m.id]);
    }
  }
  return {
    unread_msgs: {
      count,
      pms: [...pms].map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
      streams: [...streams.values()],
      huddles: [...huddles].map(([ids, msgIds]) => ({ user_ids_string: ids, unread_message_ids: msgIds })),
      mentions,
      old_unreads_missing: false,
    },
  };
}

export function starredState(store: Store, user: User): Record<string, unknown> {
  return { starred_messages: starredMessages(store, user.user_id).map((m) => m.id) };
}

/** Direct-message conversations, the most recent first, with the newest message of each. */
export function recentConversationState(store: Store, user: User): Record<string, unknown> {
  const newest = new Map<string, { max_message_id: number; user_ids: number[] }>();
  for (const m of receivedMessages(store, user.user_id)) {
    if (m.type !== 'private') continue;
    const others = othersIn(m, user.user_id).sort((a, b) => a - b);
    newest.set(others.join(','), { max_message_id: m.id, user_ids: others });
  }
  return { recent_private_conversations: [...newest.values()].sort((a, b) => b.max_message_id - a.max_message_id) };
}

/** The newest message the client's user can see; -1 when none. */
export function maxMessageIdState(store: Store, actor: User): Record<string, unknown> {
  return { max_message_id: maxVisibleMessageId(store, actor) };
}

/** The real server's search stop words (messages/stop-words.ts), as register gives them. */
export const stopWordState = () => ({ stop_words: [...STOP_WORDS] });
