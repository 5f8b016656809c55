// Views of the message reminders operations, by operationId.
import type { ViewTable } from '../context.js';
import { createReminder } from './create.js';
import { deleteReminder, listReminders } from './list-delete.js';

export const views: ViewTable = {
  'create-message-reminder': (ctx, p) => {
    const reminder = createReminder(ctx, ctx.actor, {
      messageId: p.message_id,
      scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
      note: p.note ?? '',
    });
    return { reminder_id: reminder.reminder_id };
  },
  'get-reminders': (ctx) => listReminders(ctx),
  'delete-reminder': (ctx, p) => deleteReminder(ctx, p.reminder_id),
};
