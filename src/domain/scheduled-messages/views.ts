// Views of the scheduled messages operations, by operationId.
import type { ViewTable } from '../context.js';
import { deleteScheduledMessage, listScheduledMessages, updateScheduledMessage } from './list-update-delete.js';
import { replaceScheduledMessage } from './replace-in-place.js';
import { createScheduledMessage } from './schedule.js';

export const views: ViewTable = {
  'create-scheduled-message': (ctx, p) => {
    const to = (p.type === 'direct' || p.type === 'private') && typeof p.to === 'number' ? [p.to] : p.to;
    const input = {
      type: p.type,
      to,
      content: p.content,
      topic: p.topic,
      client: ctx.clientName,
      emptyTopicDisplayName: ctx.server.emptyTopicDisplayName,
      supports: ctx.supports,
      scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
      readBySender: p.read_by_sender,
    };
    // Only servers at FL 179-183 take scheduled_message_id (the description says so): an edit.
    const row =
      p.scheduled_message_id !== undefined
        ? replaceScheduledMessage(ctx, ctx.actor, { ...input, id: p.scheduled_message_id })
        : createScheduledMessage(ctx, ctx.actor, input);
    return { scheduled_message_id: row.scheduled_message_id };
  },
  'get-scheduled-messages': (ctx) => listScheduledMessages(ctx),
  'update-scheduled-message': (ctx, p) => updateScheduledMessage(ctx, p),
  'delete-scheduled-message': (ctx, p) => deleteScheduledMessage(ctx, p.scheduled_message_id),
};
