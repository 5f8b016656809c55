// Reading, editing and unscheduling scheduled messages (GET, PATCH, DELETE /scheduled_messages).
// An edit merges the new values into the stored ones and checks the result like a new scheduled
// message (scheduled-legacy.ts's replace keeps the row's ID); the owner's clients get a
// scheduled_messages update or remove event.
import { ApiError, badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { ScheduledMessage } from '../../store/state.js';
import { scheduledMessageState } from './register-state.js';
import { deliveryTimeInPast } from '../messages/errors.js';
import { replaceScheduledMessage } from './replace-in-place.js';

const scheduledMessageNotFound = () => new ApiError('BAD_REQUEST', 'Scheduled message does not exist', 404);

/** One of the caller's scheduled messages that has not been sent yet. */
function ownScheduledMessage(ctx: Ctx, id: number): ScheduledMessage {
  const row = ctx.store.scheduledMessages.get(id);
  if (!row || row.sender_id !== ctx.actor.user_id || row.delivered_message_id !== null)
    throw scheduledMessageNotFound();
  return row;
}

export function listScheduledMessages(ctx: Ctx): { scheduled_messages: unknown[] } {
  const state = scheduledMessageState(ctx.store, ctx.actor, (topic) => topic);
  return { scheduled_messages: state.scheduled_messages as unknown[] };
}

export interface ScheduledMessageChange {
  scheduled_message_id: number;
  type?: string;
  to?: number | number[];
  content?: string;
  topic?: string;
  scheduled_delivery_timestamp?: number;
}

const isDirect = (type: string) => type === 'direct' || type === 'private';

export function updateScheduledMessage(ctx: Ctx, p: ScheduledMessageChange): void {
  const now = ctx.clock.now();
  if (
    p.type === undefined &&
    p.to === undefined &&
    p.topic === undefined &&
    p.content === undefined &&
    p.scheduled_delivery_timestamp === undefined
  ) {
    throw badRequest('Nothing to change');
  }
  if (p.type !== undefined && p.to === undefined)
    throw badRequest('Recipient required when updating type of scheduled message.');
  if (p.type !== undefined && !isDirect(p.type) && p.topic === undefined) {
    throw badRequest('Topic required when updating scheduled message type to channel.');
  }
  if (p.scheduled_delivery_timestamp !== undefined && p.scheduled_delivery_timestamp <= now) throw deliveryTimeInPast();
  const row = ownScheduledMessage(ctx, p.scheduled_message_id);

  const type = p.type ?? row.type;
  const rawTo = p.to ?? row.to;
  const to = isDirect(type) && typeof rawTo === 'number' ? [rawTo] : rawTo;
  const topic = isDirect(type) ? undefined : (p.topic ?? (row.type === 'stream' ? row.topic : undefined));
  replaceScheduledMessage(ctx, ctx.actor, {
    id: row.scheduled_message_id,
    type,
    to,
    topic,
    content: p.content ?? row.content,
    client: ctx.clientName,
    emptyTopicDisplayName: ctx.server.emptyTopicDisplayName,
    supports: ctx.supports,
    scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp ?? row.scheduled_delivery_timestamp,
    readBySender: row.read_by_sender ?? undefined,
  });
}

export function deleteScheduledMessage(ctx: Ctx, id: number): void {
  const row = ownScheduledMessage(ctx, id);
  ctx.store.scheduledMessages.remove(row);
  ctx.events.publish([ctx.actor.user_id], { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id });
}
