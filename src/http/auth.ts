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
  const user = accountOf(store, email.toLowerCase());
  if (!user || user.api_key !== apiKey) throw invalidApiKey();
  // The real server's API-key path re-raises every authentication error as UNAUTHORIZED with the
  // original message (authenticated_rest_api_view): USER_DEACTIVATED becomes UNAUTHORIZED here.
  // The organization is checked first, as the real server's validate_account_and_subdomain does.
  if (store.realm.deactivated) throw unauthorized(realmDeactivated().message);
  if (!user.is_active) throw unauthorized(accountDeactivated().message);
  return user;
}

/**
 * The account whose real address this is. Most accounts' API email is their real address (the
 * index finds them); an account that hides its address has a stand-in API email, which does not
 * authenticate, and is found by its real address.
 */
function accountOf(store: Store, lower: string): User | undefined {
  const byApiEmail = store.users.by('email', lower);
  if (byApiEmail && byApiEmail.delivery_email.toLowerCase() === lower) return byApiEmail;
  return store.users.find((u) => u.delivery_email.toLowerCase() === lower);
}
