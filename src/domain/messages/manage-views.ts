// Views of the read and delete sides of what the spec creates (scheduled messages, reminders,
// saved snippets), by operationId. Merged into views.ts.
import type { ViewTable } from '../context.js';
import { deleteReminder, listReminders } from './reminders-manage.js';
import {
  deleteScheduledMessage, listScheduledMessages, updateScheduledMessage, type ScheduledMessageChange,
} from './scheduled-manage.js';
import { deleteSavedSnippet, listSavedSnippets } from './snippets-manage.js';

export const manageViews: ViewTable = {
  'get-scheduled-messages': (ctx) => listScheduledMessages(ctx),
  'update-scheduled-message': (ctx, p) => updateScheduledMessage(ctx, p as ScheduledMessageChange),
  'delete-scheduled-message': (ctx, p) => deleteScheduledMessage(ctx, p.scheduled_message_id),
  'get-reminders': (ctx) => listReminders(ctx),
  'delete-reminder': (ctx, p) => deleteReminder(ctx, p.reminder_id),
  'get-saved-snippets': (ctx) => listSavedSnippets(ctx),
  'delete-saved-snippet': (ctx, p) => deleteSavedSnippet(ctx, p.saved_snippet_id),
};
