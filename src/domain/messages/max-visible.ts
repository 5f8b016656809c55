// The newest message a user can see (max_message_id of GET /users/me and POST /register).
import type { Store } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import { canSeeMessage } from './access.js';

/** The ID of the newest message `user` can see, or -1. */
export function maxVisibleMessageId(store: Store, user: User): number {
  const all = store.messages.all();
  // Messages are normally stored in ID order (each new one gets the next ID): then the newest
  // visible one is the answer, found from the end without an access check of every message.
  if (sortedById(all)) {
    for (let i = all.length - 1; i >= 0; i--) if (canSeeMessage(store, user, all[i])) return all[i].id;
    return -1;
  }
  let max = -1;
  for (let i = all.length - 1; i >= 0; i--) if (all[i].id > max && canSeeMessage(store, user, all[i])) max = all[i].id;
  return max;
}

/** Whether the rows are in increasing ID order; checked incrementally as rows are appended. */
const sortedUpTo = new WeakMap<readonly Message[], { length: number; sorted: boolean }>();

function sortedById(rows: readonly Message[]): boolean {
  let known = sortedUpTo.get(rows);
  // Fewer rows than last time (a deletion): check again from the start.
  if (!known || known.length > rows.length) known = { length: 0, sorted: true };
  for (let i = Math.max(Math.min(known.length, rows.length - 1), 1); known.sorted && i < rows.length; i++) {
    if (rows[i - 1].id >= rows[i].id) known.sorted = false;
  }
  known.length = rows.length;
  sortedUpTo.set(rows, known);
  return known.sorted;
}
