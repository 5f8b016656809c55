// The `reminders` section of the registration state: the user's pending reminders.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { reminderDict } from './create.js';

export function reminderState(store: Store, actor: User): Record<string, unknown> {
  const pending = store.reminders.filter((r) => r.user_id === actor.user_id && r.delivered_message_id === null);
  return {
    reminders: pending
      .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp)
      .map((r) => reminderDict(store, r)),
  };
}
