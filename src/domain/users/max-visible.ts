// The newest message a user received (max_message_id of GET /users/me and POST /register). The
// real server takes the newest of the user's own message rows: messages of public channels the
// user is not in do not count, though the user may read them, so that a client's max_message_id
// moves only with the message events its queue delivers.
import { receivedMessages, type Store } from '../../store/store.js';
import type { User } from '../../store/state.js';

/** The ID of the newest message `user` received, or -1: the store's index lists them in ID order. */
export function maxVisibleMessageId(store: Store, user: User): number {
  const own = receivedMessages(store, user.user_id);
  return own.length ? own[own.length - 1].id : -1;
}
