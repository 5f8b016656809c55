// HTTP Basic authentication: the username is the API email, the password the API key.
import { invalidApiKey, notLoggedIn, accountDeactivated, realmDeactivated, unauthorized } from '../errors.js';
import type { Store } from '../store/store.js';
import type { User } from '../store/state.js';
import { basicCredentials } from '../basic-credentials.js';

export { basicCredentials };

export function authenticate(store: Store, header: string | undefined): User {
  const creds = basicCredentials(header);
  if (!creds) throw notLoggedIn();
  const [email, apiKey] = creds;
  const user = store.users.by('email', email.toLowerCase());
  if (!user || user.api_key !== apiKey) throw invalidApiKey();
  // The real server's API-key path re-raises every authentication error as UNAUTHORIZED with the
  // original message (authenticated_rest_api_view): USER_DEACTIVATED becomes UNAUTHORIZED here.
  // The organization is checked first, as the real server's validate_account_and_subdomain does.
  if (store.realm.deactivated) throw unauthorized(realmDeactivated().message);
  if (!user.is_active) throw unauthorized(accountDeactivated().message);
  return user;
}
