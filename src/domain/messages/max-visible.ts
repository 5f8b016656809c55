// The newest message a user can see (max_message_id of GET /users/me and POST /register).
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { canSeeMessage } from './access.js';

/** The ID of the newest message `user` can see, or -1: the store keeps messages in ID order. */
export function maxVisibleMessageId(store: Store, user: User): number {
  const all = store.messages.all();
  for (let i = all.length - 1; i >= 0; i--) if (canSeeMessage(store, user, all[i])) return all[i].id;
  return -1;
}
