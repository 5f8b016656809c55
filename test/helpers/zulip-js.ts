// The real JavaScript client (zulip-js), logged in as a fixture user of a test server.
import zulipInit from 'zulip-js';
import type { TestServer } from './server.js';

export function zulipAs(t: TestServer, who: string) {
  const u = t.user(who);
  return zulipInit({ realm: t.base, username: u.email, apiKey: u.api_key });
}
