// The real JavaScript client (zulip-js), logged in: the one way tests log zulip-js in.
import zulipInit from 'zulip-js';
import type { TestServer } from './server.js';

interface Account {
  email: string;
  api_key?: string;
  password?: string;
}

/**
 * zulip-js at `realm` (a site URL) as `account`: with its API key, or with its password, in
 * which case zulip-js asks POST /fetch_api_key for the key itself, as a real login does.
 */
export function zulipLogin(realm: string, account: Account, how: 'api-key' | 'password' = 'api-key') {
  const secret = how === 'password' ? { password: account.password } : { apiKey: account.api_key };
  if (!Object.values(secret)[0]) throw new Error(`no ${how} for ${account.email}`);
  return zulipInit({ realm, username: account.email, ...secret });
}

/** zulip-js logged in as a fixture user (email or short name: 'hamlet') of a test server. */
export const zulipAs = (t: TestServer, who: string, how: 'api-key' | 'password' = 'api-key') =>
  zulipLogin(t.base, t.user(who), how);
