// The server a fuzz file runs against: started before its tests at a frozen, fixed time (so that
// runs replay), with every logged line kept for the "nothing unexpected logged" property.
import { afterAll, beforeAll } from 'vitest';
import { startTestServer } from '../helpers/server.js';
import { resetWorld, type FuzzTarget } from './check.js';
import { basic } from './requests.js';

export function fuzzTarget(): FuzzTarget {
  const target = { logs: [] } as unknown as FuzzTarget;
  beforeAll(async () => {
    target.t = await startTestServer({ longpollTimeoutSeconds: 1, log: (line) => target.logs.push(line) });
    target.t.server.clock.set(Date.UTC(2025, 5, 1, 12));
    target.t.server.clock.freeze();
    resetWorld(target);
  });
  afterAll(() => target.t.close());
  return target;
}

/** A Basic Authorization header for a fixture user. */
export function credentialsOf(target: FuzzTarget, who: string): string {
  const u = target.t.user(who);
  return basic(u.email, u.api_key);
}
