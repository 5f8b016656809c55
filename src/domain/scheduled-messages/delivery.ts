// Delivers whatever has come due: every scheduled message and reminder whose delivery time is
// not after the world's current time. A scheduled message is sent by its author (a new message with a new ID); a
// reminder becomes a notification-bot direct message to its owner. Clients learn that the
// scheduled message or reminder is gone, and get the new message.
import { ApiError } from '../../errors.js';
import type { Reminder, ScheduledMessage } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { reminderContent } from '../reminders/create.js';
import { sendMessage, sendNotificationBotMessage } from '../messages/send.js';
import { scheduledMessageDict } from './schedule.js';

const byTime = <T extends { scheduled_delivery_timestamp: number }>(a: T, b: T) =>
  a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp;

function deliverScheduled(world: WorldCtx, sm: ScheduledMessage): void {
  const { store, events } = world;
  const sender = store.users.get(sm.sender_id);
  try {
    if (!sender || !sender.is_active) throw new ApiError('BAD_REQUEST', 'Account is deactivated');
    const sent = sendMessage(world, sender, {
      type: sm.type,
      to: sm.to,
      topic: sm.type === 'stream' ? sm.topic : undefined,
      content: sm.content,
      client: sm.client ?? 'Internal',
      readBySender: sm.read_by_sender ?? false,
    });
    store.scheduledMessages.update(sm, { delivered_message_id: sent.message.id });
    events.publish([sm.sender_id], {
      type: 'scheduled_messages',
      op: 'remove',
      scheduled_message_id: sm.scheduled_message_id,
    });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // The message can no longer be sent (channel gone, permission lost...): it stays, marked failed.
    store.scheduledMessages.update(sm, { failed: true });
    events.publish([sm.sender_id], {
      type: 'scheduled_messages',
      op: 'update',
      scheduled_message: scheduledMessageDict(sm),
    });
    if (sender?.is_active) {
      sendNotificationBotMessage(world, {
        type: 'private',
        to: [sm.sender_id],
        content: `The message you scheduled was not sent because of the following error: ${err.message}`,
      });
    }
  }
}

function deliverReminder(world: WorldCtx, reminder: Reminder): void {
  const { store, events } = world;
  const message = store.messages.get(reminder.message_id);
  const owner = store.users.get(reminder.user_id);
  if (message && owner?.is_active) {
    const sent = sendNotificationBotMessage(world, {
      type: 'private',
      to: [reminder.user_id],
      content: reminderContent(store, message, reminder.note),
    });
    store.reminders.update(reminder, { delivered_message_id: sent.message.id });
  } else {
    // The message was deleted (or the owner left): the reminder goes with it.
    store.reminders.remove(reminder);
  }
  events.publish([reminder.user_id], { type: 'reminders', op: 'remove', reminder_id: reminder.reminder_id });
}

/** Delivers what is due at the world's current time. */
export function deliverDue(world: WorldCtx): void {
  const { store } = world;
  const now = world.clock.now();
  const dueMessages = store.scheduledMessages
    .filter((sm) => sm.delivered_message_id === null && !sm.failed && sm.scheduled_delivery_timestamp <= now)
    .sort(byTime);
  for (const sm of dueMessages) deliverScheduled(world, sm);
  const dueReminders = store.reminders
    .filter((r) => r.delivered_message_id === null && r.scheduled_delivery_timestamp <= now)
    .sort(byTime);
  for (const reminder of dueReminders) deliverReminder(world, reminder);
}
