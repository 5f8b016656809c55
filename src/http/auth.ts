// HTTP Basic authentication: the username is the API email, the password the API key.
import { invalidApiKey, notLoggedIn, accountDeactivated, unauthorized } from '../errors.js';
import type { Store } from '../store/store.js';
import type { User } from '../store/state.js';
import { Memo } from '../memo.js';

/** Headers decoded lately: a client sends the same one with every request. */
const decodedHeaders = new Memo<string, [string, string]>(1000);

/** Returns [email, apiKey] from an Authorization header, or null when there is none. */
/** The email and key of a Basic Authorization header; null without one; throws when malformed. */
export function basicCredentials(header: string | undefined): [string, string] | null {
  return header ? decodedHeaders.get(header, decodeBasic) : null;
}

function decodeBasic(header: string): [string, string] {
  const m = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized('This endpoint requires HTTP basic authentication.');
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw unauthorized('Invalid authorization header for basic auth');
  return [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

export function authenticate(store: Store, header: string | undefined): User {
  const creds = basicCredentials(header);
  if (!creds) throw notLoggedIn();
  const [email, apiKey] = creds;
  const user = store.users.by('email', email.toLowerCase());
  if (!user || user.api_key !== apiKey) throw invalidApiKey();
  // The real server's API-key path re-raises every authentication error as UNAUTHORIZED with the
  // original message (authenticated_rest_api_view): USER_DEACTIVATED becomes UNAUTHORIZED here.
  // The organization is checked first, as the real server's validate_account_and_subdomain does.
  if (store.realm.deactivated) throw unauthorized('This organization is deactivated');
  if (!user.is_active) throw unauthorized(accountDeactivated().message);
  return user;
}
