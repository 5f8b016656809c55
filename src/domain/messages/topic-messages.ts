// The messages an edit of one message carries along (propagate_mode), among those of its topic
// that the editing user may see.
import { createHash } from 'node:crypto';
import { topicMessagesInOrder, type Store } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import { canReadChannelHistory } from './history.js';

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The topic's messages the user may see, in ID order (topics compare case-insensitively). */
export function visibleTopicMessages(store: Store, user: User, streamId: number, topic: string): Message[] {
  const stream = store.streams.get(streamId);
  const history = !!stream && canReadChannelHistory(store, user, stream);
  const key = String(user.user_id);
  return topicMessagesInOrder(store, streamId, topic).filter((m) => history || key in m.flags);
}

export function topicMessages(
  store: Store,
  user: User,
  message: Message,
  mode: 'change_one' | 'change_later' | 'change_all',
): Message[] {
  if (mode === 'change_one' || message.type !== 'stream') return [message];
  const all = visibleTopicMessages(store, user, message.stream_id!, message.topic);
  return mode === 'change_all' ? all : all.filter((m) => m.id >= message.id);
}
