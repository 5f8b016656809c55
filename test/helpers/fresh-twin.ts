// A second server holding a copy of a test server's state, loaded anew (so nothing derived from
// the first server's rows, such as the dicts reads keep, carries over) and at the same instant:
// what a read answers when built from scratch, to compare byte for byte with the first server.
import { basicAuth, startTestServer, type TestServer } from './server.js';
import { formEncode, type Params } from './server.js';
import { FEATURE_LEVEL_HEADER } from '../../src/http/mock-headers.js';

export interface FreshTwin {
  /** The raw answer of `path` as `who` (at `level`), from `t` and from a fresh copy of its state. */
  both(who: string, path: string, params?: Params, level?: number): Promise<{ kept: string; fresh: string }>;
  close(): Promise<void>;
}

async function raw(t: TestServer, who: string, path: string, params: Params, level?: number): Promise<string> {
  const user = t.user(who);
  const query = [...formEncode(params)].length ? `?${formEncode(params)}` : '';
  const res = await fetch(`${t.base}/api/v1${path}${query}`, {
    headers: {
      authorization: basicAuth(user.delivery_email, user.api_key),
      ...(level === undefined ? {} : { [FEATURE_LEVEL_HEADER]: String(level) }),
    },
  });
  return `${res.status} ${await res.text()}`;
}

export async function freshTwin(t: TestServer): Promise<FreshTwin> {
  const twin = await startTestServer({ answerCache: false });
  return {
    async both(who, path, params = {}, level) {
      t.server.world.clock.freeze();
      twin.server.world.clock.freeze();
      twin.server.world.clock.set(t.server.world.clock.nowMs());
      twin.server.world.store.load(structuredClone(t.server.world.store.state));
      const kept = await raw(t, who, path, params, level);
      const fresh = await raw(twin, who, path, params, level);
      t.server.world.clock.unfreeze();
      return { kept, fresh };
    },
    close: () => twin.close(),
  };
}
