// Looking users up by ID or email, with the real server's errors.
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';

/** Any user, active or not, or "No such user". */
export function userById(store: Store, userId: number): User {
  const user = store.users.get(userId);
  if (!user) throw badRequest('No such user');
  return user;
}

export function activeUserById(store: Store, userId: number): User {
  const user = store.users.get(userId);
  if (!user || !user.is_active) throw badRequest('No such user');
  return user;
}

export function userByEmail(store: Store, email: string): User | undefined {
  return store.users.by('email', email.toLowerCase());
}

/** IDs of every active user (people and bots): the audience of organization-wide events. */
export function activeUserIds(store: Store): number[] {
  return store.users.filter((u) => u.is_active).map((u) => u.user_id);
}
