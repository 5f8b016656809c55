// Typing notifications while editing a message (POST /messages/{id}/typing): the same start/stop
// protocol as composing, sent to the message's recipients whose receives_typing_notifications is on.
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { subscriberIds } from '../channels/access.js';
import { accessMessage } from '../messages/access.js';

/** Grace period the real server allows past the edit limit (requests in flight). */
const EDIT_LIMIT_BUFFER_SECONDS = 20;

/** The checks for editing a message's content (who, and until when). */
export function checkCanEditContent(store: Store, user: User, message: Message, now: number): void {
  const { realm } = store;
  if (!realm.allow_message_editing) throw badRequest('Your organization has turned off message editing');
  if (message.sender_id !== user.user_id) throw badRequest("You don't have permission to edit this message");
  const limit = realm.message_content_edit_limit_seconds;
  if (limit !== null && now - message.timestamp > limit + EDIT_LIMIT_BUFFER_SECONDS) {
    throw badRequest('The time limit for editing this message has passed');
  }
}

export function sendEditTyping({ store, events, clock }: WorldCtx, user: User, { messageId, op }: { messageId: number; op: 'start' | 'stop' }): void {
  const message = accessMessage(store, user, messageId);
  checkCanEditContent(store, user, message, clock.now());
  const isChannel = message.type === 'stream';
  const setting = isChannel ? 'send_stream_typing_notifications' : 'send_private_typing_notifications';
  if (user.settings[setting] === false) {
    throw badRequest(`User has disabled typing notifications for ${isChannel ? 'channel' : 'direct'} messages`);
  }
  const audience = isChannel ? subscriberIds(store, message.stream_id!) : message.recipient_ids;
  const receivers = audience.filter((id) => store.users.get(id)?.settings.receives_typing_notifications === true);
  const recipient = isChannel
    ? { type: 'channel', channel_id: message.stream_id, topic: message.topic }
    : { type: 'direct', user_ids: message.recipient_ids };
  events.publish(receivers, { type: 'typing_edit_message', op, sender_id: user.user_id, message_id: message.id, recipient });
}
