// Scheduled messages: checked like a send when scheduled, stored until their delivery time, then
// sent by delivery.ts as a new message with its own ID.
import type { ScheduledMessage, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { checkMessage, type PreparedMessage, type SendInput } from '../messages/check.js';
import { deliveryTimeInPast } from '../messages/errors.js';
import { defaultReadBySender } from '../messages/send.js';

export interface ScheduleInput extends SendInput {
  scheduledDeliveryTimestamp: number;
  readBySender?: boolean;
}

/** The scheduled message as the API shows it (scheduled_messages events, GET /scheduled_messages). */
export function scheduledMessageDict(sm: ScheduledMessage): Record<string, unknown> {
  return {
    scheduled_message_id: sm.scheduled_message_id,
    type: sm.type,
    to: sm.to,
    ...(sm.type === 'stream' ? { topic: sm.topic } : {}),
    content: sm.content,
    rendered_content: sm.rendered_content,
    scheduled_delivery_timestamp: sm.scheduled_delivery_timestamp,
    failed: sm.failed,
  };
}

/** `to` as the real server keeps it: the channel ID, or the other user (one-to-one), or everyone (group). */
function storedTo(prepared: PreparedMessage): number | number[] {
  if (prepared.addressee.type === 'stream') return prepared.addressee.stream.stream_id;
  const ids = prepared.recipientIds;
  if (ids.length > 2) return ids;
  const others = ids.filter((id) => id !== prepared.sender.user_id);
  return others.length ? others : [prepared.sender.user_id];
}

export function createScheduledMessage(world: WorldCtx, sender: User, input: ScheduleInput): ScheduledMessage {
  const { store, events } = world;
  if (input.scheduledDeliveryTimestamp <= world.clock.now()) throw deliveryTimeInPast();
  const prepared = checkMessage(store, sender, input, world.clock.nowMs());
  const to = storedTo(prepared);
  // Unless the client says, what a person schedules starts read, except a note to themselves.
  const toSelfOnly = Array.isArray(to) && to.length === 1 && to[0] === sender.user_id;
  const readBySender = input.readBySender ?? (defaultReadBySender(input.client) && !toSelfOnly);
  const row: ScheduledMessage = {
    scheduled_message_id: store.nextId('scheduled_messages'),
    sender_id: sender.user_id,
    type: prepared.addressee.type,
    to,
    topic: prepared.topic,
    content: prepared.content,
    rendered_content: prepared.rendered.html,
    scheduled_delivery_timestamp: input.scheduledDeliveryTimestamp,
    read_by_sender: readBySender,
    client: input.client,
    failed: false,
    delivered_message_id: null,
  };
  store.scheduledMessages.insert(row);
  events.publish([sender.user_id], {
    type: 'scheduled_messages',
    op: 'add',
    scheduled_messages: [scheduledMessageDict(row)],
  });
  return row;
}
