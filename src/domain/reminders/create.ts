// Message reminders: at the chosen time the notification bot sends the user a direct message
// that links the message, quotes it and carries the user's note.
import type { Store } from '../../store/store.js';
import type { Message, Reminder, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { renderMarkdown } from '../render/markdown.js';
import { directMessageUrl, messageUrl } from '../render/narrow-urls.js';
import { accessMessage } from '../messages/access.js';
import { deliveryTimeInPast } from '../messages/errors.js';
import { silentMention } from '../render/mentions.js';
import { unusedFence } from '../render/quote.js';

/** The notification bot's reminder text (content of the direct message). */
export function reminderContent(store: Store, message: Message, note: string): string {
  const noteText = note.trim() ? ` Note:\n > ${note.trim().replace(/\n/g, '\n > ')}` : '';
  let intro: string;
  let url: string;
  if (message.type === 'stream') {
    const stream = store.streams.get(message.stream_id!)!;
    intro = `You requested a reminder for #**${stream.name}>${message.topic}@${message.id}**.`;
    url = messageUrl(stream.stream_id, stream.name, message.topic, message.id);
  } else {
    intro = 'You requested a reminder for the following direct message.';
    url = directMessageUrl(message.recipient_ids, message.id);
  }
  const sender = store.users.get(message.sender_id)!;
  const fence = unusedFence(message.content);
  return `${intro}${noteText}\n\n${silentMention(sender)} [said](${store.realm.url}${url}):\n${fence}quote\n${message.content}\n${fence}`;
}

export function reminderDict(store: Store, reminder: Reminder): Record<string, unknown> {
  const message = store.messages.get(reminder.message_id);
  const content = message ? reminderContent(store, message, reminder.note) : '';
  return {
    reminder_id: reminder.reminder_id,
    type: 'private',
    to: [reminder.user_id],
    content,
    rendered_content: renderMarkdown(store, content, store.users.get(store.realm.notification_bot_id) ?? null),
    scheduled_delivery_timestamp: reminder.scheduled_delivery_timestamp,
    failed: false,
    reminder_target_message_id: reminder.message_id,
  };
}

export interface ReminderInput {
  messageId: number;
  scheduledDeliveryTimestamp: number;
  note: string;
}

export function createReminder(world: WorldCtx, user: User, input: ReminderInput): Reminder {
  const { store, events } = world;
  if (input.scheduledDeliveryTimestamp <= world.clock.now()) throw deliveryTimeInPast();
  accessMessage(store, user, input.messageId);
  const reminder: Reminder = {
    reminder_id: store.nextId('reminders'),
    user_id: user.user_id,
    message_id: input.messageId,
    note: input.note,
    scheduled_delivery_timestamp: input.scheduledDeliveryTimestamp,
    delivered_message_id: null,
  };
  store.reminders.insert(reminder);
  events.publish([user.user_id], { type: 'reminders', op: 'add', reminders: [reminderDict(store, reminder)] });
  return reminder;
}
