// HTTP Basic authentication: the username is the API email, the password the API key.
import { invalidApiKey, notLoggedIn, accountDeactivated, ApiError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { User } from '../store/state.js';
import { Memo } from '../memo.js';

/** Headers decoded lately: a client sends the same one with every request. */
const decodedHeaders = new Memo<string, [string, string]>(1000);

/** Returns [email, apiKey] from an Authorization header, or null when there is none. */
function basicCredentials(header: string | undefined): [string, string] | null {
  return header ? decodedHeaders.get(header, decodeBasic) : null;
}

function decodeBasic(header: string): [string, string] {
  const m = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!m) throw new ApiError('UNAUTHORIZED', 'This endpoint requires HTTP basic authentication.', 401, {}, { 'WWW-Authenticate': 'Basic realm="zulip"' });
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new ApiError('UNAUTHORIZED', 'Invalid authorization header for basic auth', 401, {}, { 'WWW-Authenticate': 'Basic realm="zulip"' });
  return [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

export function authenticate(store: Store, header: string | undefined): User {
  const creds = basicCredentials(header);
  if (!creds) throw notLoggedIn();
  const [email, apiKey] = creds;
  const user = store.users.by('email', email.toLowerCase());
  if (!user || user.api_key !== apiKey) throw invalidApiKey();
  if (!user.is_active) throw accountDeactivated();
  return user;
}
