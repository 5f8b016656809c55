// Whether a user may see a message: a direct message's participants; for a channel message,
// anyone with content access when history is public to subscribers, otherwise only those who
// received it (they have a flags entry).
import type { Store } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import { badRequest } from '../../errors.js';
import { hasContentAccess } from '../channels/access.js';

export function canSeeMessage(store: Store, user: User, message: Message): boolean {
  if (message.type === 'private') return message.recipient_ids.includes(user.user_id);
  const stream = store.streams.get(message.stream_id!);
  if (!stream || !hasContentAccess(store, user, stream)) return false;
  if (stream.invite_only && !stream.history_public_to_subscribers) return String(user.user_id) in message.flags;
  return true;
}

/** The message if the user may see it; "Invalid message(s)" otherwise, as the real server says. */
export function accessMessage(store: Store, user: User, messageId: number): Message {
  const message = store.messages.get(messageId);
  if (!message || !canSeeMessage(store, user, message)) throw badRequest('Invalid message(s)');
  return message;
}
