// HTTP Basic authentication: the username is the account's real address (delivery_email, any
// case), the password the API key, as the real server's access_user_by_api_key checks them.
import { invalidApiKey, notLoggedIn, accountDeactivated, realmDeactivated, unauthorized } from '../errors.js';
import type { Store } from '../store/store.js';
import type { User } from '../store/state.js';
import { basicCredentials } from '../basic-credentials.js';

export { basicCredentials };

export function authenticate(store: Store, header: string | undefined): User {
  const creds = basicCredentials(header);
  if (!creds) throw notLoggedIn();
  const [email, apiKey] = creds;
  const user = accountOf(store, email, apiKey);
  if (!user) throw invalidApiKey();
  // The real server's API-key path re-raises every authentication error as UNAUTHORIZED with the
  // original message (authenticated_rest_api_view): USER_DEACTIVATED becomes UNAUTHORIZED here.
  // The organization is checked first, as the real server's validate_account_and_subdomain does.
  if (store.realm.deactivated) throw unauthorized(realmDeactivated().message);
  if (!user.is_active) throw unauthorized(accountDeactivated().message);
  return user;
}

/**
 * The account with this real address (the store's index, any case) and this API key. A stand-in
 * API email (an account that hides its address) names no account here, so it does not authenticate.
 */
function accountOf(store: Store, email: string, apiKey: string): User | undefined {
  for (const user of store.users.group('deliveryEmail', email.toLowerCase())) if (user.api_key === apiKey) return user;
  return undefined;
}
