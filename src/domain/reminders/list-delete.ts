// GET /reminders and DELETE /reminders/{id}: the caller's pending reminders (as the registration
// response lists them) and deleting one, with a reminders/remove event to the owner's clients.
import { ApiError } from '../../errors.js';
import type { Ctx } from '../context.js';
import { reminderState } from './register-state.js';

export function listReminders(ctx: Ctx): { reminders: unknown[] } {
  return { reminders: reminderState(ctx.store, ctx.actor).reminders as unknown[] };
}

export function deleteReminder(ctx: Ctx, reminderId: number): void {
  const row = ctx.store.reminders.get(reminderId);
  if (!row || row.user_id !== ctx.actor.user_id || row.delivered_message_id !== null) {
    throw new ApiError('BAD_REQUEST', 'Reminder does not exist', 404);
  }
  ctx.store.reminders.remove(row);
  ctx.events.publish([ctx.actor.user_id], { type: 'reminders', op: 'remove', reminder_id: reminderId });
}
