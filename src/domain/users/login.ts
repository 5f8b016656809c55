// POST /fetch_api_key: password login for clients configured with a password. Unauthenticated.
// As on the real server, a deactivated account is reported whatever the password, and bots (whose
// passwords are unusable) cannot log in this way.
import { ApiError, accountDeactivated, badRequest, realmDeactivated } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { isValidEmail } from './settings-values.js';
import { userByDeliveryEmail } from './access.js';

export const authenticationFailed = () =>
  new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);

/**
 * What every login checks of the account it found, in the real server's order (its backends'
 * common_get_active_user): a deactivated account, then a deactivated organization, both before
 * any password is looked at.
 */
export function requireLoginAllowed(store: Store, user: { is_active: boolean }): void {
  if (!user.is_active) throw accountDeactivated();
  if (store.realm.deactivated) throw realmDeactivated();
}

export function fetchApiKey(
  store: Store,
  username: string,
  password: string,
): { api_key: string; email: string; user_id: number } {
  const address = username.trim();
  if (!isValidEmail(address)) throw badRequest('Enter a valid email address.');
  const wanted = address.toLowerCase();
  const user = userByDeliveryEmail(store, wanted, (u) => !u.is_system_bot);
  if (!user) throw authenticationFailed();
  requireLoginAllowed(store, user);
  if (user.is_bot || user.password !== password) throw authenticationFailed();
  return { api_key: user.api_key, email: user.delivery_email, user_id: user.user_id };
}
