// Looking users up by ID or email, with the real server's errors.
import type { Store } from '../../store/store.js';
import { Role, type User } from '../../store/state.js';

export function userByEmail(store: Store, email: string): User | undefined {
  return store.users.by('email', email.toLowerCase());
}

/**
 * The account whose real address this is (any case; the store's index), the oldest that `accept`
 * allows: one account, unless a fixture gives an address twice.
 */
export function userByDeliveryEmail(
  store: Store,
  email: string,
  accept: (u: User) => boolean = () => true,
): User | undefined {
  for (const u of store.users.group('deliveryEmail', email.toLowerCase())) if (accept(u)) return u;
  return undefined;
}

/** IDs of every active user (people and bots): the audience of organization-wide events. */
export function activeUserIds(store: Store): number[] {
  return store.users.filter((u) => u.is_active).map((u) => u.user_id);
}

/** IDs of the active administrators and owners who are people (the real server's get_human_admin_users). */
export function humanAdminIds(store: Store): number[] {
  return store.users.filter((u) => u.is_active && !u.is_bot && u.role <= Role.administrator).map((u) => u.user_id);
}
