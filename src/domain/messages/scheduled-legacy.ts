// FL 179-183: POST /scheduled_messages with scheduled_message_id edited that scheduled message
// in place (from FL 184 editing is PATCH /scheduled_messages/{id}). The new values go through
// exactly the checks of a new scheduled message; the row keeps its ID.
import { badRequest } from '../../errors.js';
import type { EventSink } from '../context.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { createScheduledMessage, scheduledMessageDict } from './scheduled.js';

type ScheduleInput = Parameters<typeof createScheduledMessage>[3];

const silent: EventSink = { publish: () => {} };

export function replaceScheduledMessage(store: Store, events: EventSink, sender: User, id: number, input: ScheduleInput, now: number) {
  const old = store.scheduledMessages.get(id);
  if (!old || old.sender_id !== sender.user_id || old.delivered_message_id !== null) throw badRequest('Scheduled message does not exist');
  const fresh = createScheduledMessage(store, silent, sender, input, now);
  store.scheduledMessages.remove(fresh);
  const { scheduled_message_id: _id, ...values } = fresh;
  store.scheduledMessages.update(old, values);
  events.publish([sender.user_id], { type: 'scheduled_messages', op: 'update', scheduled_message: scheduledMessageDict(old) });
  return old;
}
