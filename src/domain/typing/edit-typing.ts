// Typing notifications while editing a message (POST /messages/{id}/typing): the same start/stop
// protocol as composing, sent to the message's recipients whose receives_typing_notifications is on.
import { badRequest } from '../../errors.js';
import type { User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { subscriberIds } from '../channels/access.js';
import { accessMessage } from '../messages/access.js';
import { checkCanEditContent } from '../messages/edit-limit.js';

export function sendEditTyping(
  { store, events, clock }: WorldCtx,
  user: User,
  { messageId, op }: { messageId: number; op: 'start' | 'stop' },
): void {
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
  events.publish(receivers, {
    type: 'typing_edit_message',
    op,
    sender_id: user.user_id,
    message_id: message.id,
    recipient,
  });
}
