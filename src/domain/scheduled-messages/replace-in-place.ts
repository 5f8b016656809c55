// FL 179-183: POST /scheduled_messages with scheduled_message_id edited that scheduled message
// in place (from FL 184 editing is PATCH /scheduled_messages/{id}). The new values go through
// exactly the checks of a new scheduled message; the row keeps its ID.
import { badRequest } from '../../errors.js';
import type { EventSink, WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { createScheduledMessage, scheduledMessageDict } from './schedule.js';

type ScheduleInput = Parameters<typeof createScheduledMessage>[2];

const silent: EventSink = { publish: () => {} };

/** `input.id`: the scheduled message to replace. */
export function replaceScheduledMessage(
  world: WorldCtx,
  sender: User,
  { id, ...input }: ScheduleInput & { id: number },
) {
  const { store, events } = world;
  const old = store.scheduledMessages.get(id);
  if (!old || old.sender_id !== sender.user_id || old.delivered_message_id !== null)
    throw badRequest('Scheduled message does not exist');
  const fresh = createScheduledMessage({ ...world, events: silent }, sender, input);
  store.scheduledMessages.remove(fresh);
  const { scheduled_message_id: _id, ...values } = fresh;
  store.scheduledMessages.update(old, values);
  events.publish([sender.user_id], {
    type: 'scheduled_messages',
    op: 'update',
    scheduled_message: scheduledMessageDict(old),
  });
  return old;
}
