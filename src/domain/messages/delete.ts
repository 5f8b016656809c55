// DELETE /messages/{message_id}: who may delete (validate_can_delete_message) and the deletion
// itself, which tells everyone who could see the message with a delete_message event.
import { forgetDeletedMessages } from '../uploads/links.js';
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { holdsSetting } from '../group-settings/membership.js';
import { accessMessage } from './access.js';
import { audienceOf } from './audience.js';
import { firstMessageId, tellFirstMessageId } from '../channels/first-message.js';

const noPermission = () => badRequest("You don't have permission to delete this message");

/**
 * Anyone in the organization's or the channel's can_delete_any_message_group may delete any
 * message; otherwise only their own (or their bots') messages, when they are in the
 * organization's or channel's can_delete_own_message_group, within the delete time limit.
 */
function checkCanDelete(store: Store, user: User, message: Message, now: number): void {
  const { realm } = store;
  const stream = message.type === 'stream' ? store.streams.get(message.stream_id!) : undefined;
  if (holdsSetting(store, realm.can_delete_any_message_group, user.user_id)) return;
  if (stream && holdsSetting(store, stream.can_delete_any_message_group, user.user_id)) return;
  const sender = store.users.get(message.sender_id);
  if (message.sender_id !== user.user_id && sender?.bot_owner_id !== user.user_id) throw noPermission();
  const mayDeleteOwn =
    holdsSetting(store, realm.can_delete_own_message_group, user.user_id) ||
    (!!stream && holdsSetting(store, stream.can_delete_own_message_group, user.user_id));
  if (!mayDeleteOwn) throw noPermission();
  const limit = realm.message_content_delete_limit_seconds ?? null;
  if (limit !== null && now - message.timestamp > limit)
    throw badRequest('The time limit for deleting this message has passed');
}

/**
 * Removes messages and sends delete_message events (one per channel topic, one for direct
 * messages) to those who had them and the user who deleted them. A channel whose oldest message
 * goes gets its new first_message_id told first, as the real server orders the two.
 */
export function deleteMessages(world: WorldCtx, messages: Message[], actingUserId?: number): void {
  const { store, events } = world;
  const groups = new Map<string, Message[]>();
  for (const m of messages) {
    const key = m.type === 'stream' ? `${m.stream_id}\u0000${m.topic}` : 'dm';
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  for (const group of groups.values()) {
    const audience = audienceOf(store, group);
    if (actingUserId !== undefined && store.users.get(actingUserId)?.is_active) audience.add(actingUserId);
    const ids = new Set(group.map((m) => m.id));
    const first = group[0];
    const stream = first.type === 'stream' ? store.streams.get(first.stream_id!) : undefined;
    const firstBefore = stream ? firstMessageId(store, stream.stream_id) : null;
    store.messages.removeWhere((m) => ids.has(m.id));
    forgetDeletedMessages(world, ids);
    if (stream && firstBefore !== null && ids.has(firstBefore))
      tellFirstMessageId(world, stream, firstBefore, audience);
    events.publish(
      audience,
      stream
        ? {
            type: 'delete_message',
            message_type: 'stream',
            message_ids: [...ids],
            stream_id: first.stream_id,
            topic: first.topic,
          }
        : { type: 'delete_message', message_type: 'private', message_ids: [...ids] },
    );
  }
}

export function deleteMessage(world: WorldCtx, user: User, { messageId }: { messageId: number }): void {
  const { store } = world;
  const now = world.clock.now();
  const message = accessMessage(store, user, messageId);
  checkCanDelete(store, user, message, now);
  deleteMessages(world, [message], user.user_id);
}
