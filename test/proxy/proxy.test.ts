// Proxy mode: a second teamchat-mock plays the real server. What no scenario answers goes to it
// unchanged and comes back unchanged; its drift from the description shows in the journal.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockServer, type StartedMock } from '../../src/index.js';
import { basicAuth } from '../helpers/server.js';
import { takeViolations } from '../setup/contract-guard.js';

let upstream: StartedMock;
let proxy: StartedMock;
let hamlet: string;

beforeAll(async () => {
  upstream = await startMockServer();
  proxy = await startMockServer({ proxy: upstream.baseUrl });
  const h = upstream.user('hamlet');
  hamlet = basicAuth(h.email, h.api_key);
});
afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
});
beforeEach(async () => {
  await upstream.control.reset();
  await upstream.control.scenarios.deactivate();
  await upstream.control.journal.clear();
  await proxy.control.reset();
  await proxy.control.scenarios.deactivate();
  await proxy.control.journal.clear();
});

const get = (base: string, path: string, auth = hamlet) =>
  fetch(`${base}/api/v1${path}`, { headers: { authorization: auth } });
const journal = async (base: string, query = '') =>
  (await (await fetch(`${base}/__mock/journal${query}`)).json()) as { entries: any[] };

/** An upstream answer to GET /users/me that drifted three ways. */
const DRIFTED_ME = {
  operation: 'get-own-user',
  respond: {
    status: 200,
    body: {
      result: 'success',
      msg: '',
      user_id: 'ten',
      email: 'hamlet@zulip.com',
      full_name: 'King Hamlet',
      is_admin: false,
      is_owner: false,
      is_guest: false,
      is_bot: false,
      role: 400,
      timezone: '',
      is_active: true,
      date_joined: '2024-01-01T00:00:00Z',
      delivery_email: 'hamlet@zulip.com',
      profile_data: {},
      max_message_id: 1,
      avatar_version: 1,
      brand_new_field: true,
    },
  },
};

describe('--proxy', () => {
  it('returns the upstream answer unchanged: status, content type and bytes', async () => {
    const direct = await get(upstream.baseUrl, '/users/me');
    const relayed = await get(proxy.baseUrl, '/users/me');
    expect(relayed.status).toBe(200);
    expect(relayed.headers.get('content-type')).toBe(direct.headers.get('content-type'));
    expect(await relayed.text()).toBe(await direct.text());
    const entries = (await journal(upstream.baseUrl, '?operation=get-own-user')).entries;
    expect(entries.map((e) => e.user)).toEqual(['hamlet@zulip.com', 'hamlet@zulip.com']);
  });

  it('passes the credentials through: the upstream refuses a wrong key, the mock does not judge it', async () => {
    const res = await get(proxy.baseUrl, '/users/me', basicAuth('hamlet@zulip.com', 'not-the-key'));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' });
  });

  it('sends writes upstream: the message is in the upstream state, not the mock', async () => {
    const res = await fetch(`${proxy.baseUrl}/api/v1/messages`, {
      method: 'POST',
      headers: { authorization: hamlet, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ type: 'stream', to: 'Denmark', topic: 'proxied', content: 'through the proxy' }),
    });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: number };
    expect((await get(upstream.baseUrl, `/messages/${id}`)).status).toBe(200);
    expect(proxy.server.world.store.messages.has(id)).toBe(false);
  });

  it('journals the upstream drift: a changed type, a dropped required field, an undocumented field', async () => {
    await upstream.control.scenarios.activate({ name: 'drifted-me', rules: [DRIFTED_ME] });
    const relayed = await get(proxy.baseUrl, '/users/me');
    expect(relayed.status).toBe(200);
    expect(((await relayed.json()) as any).user_id).toBe('ten');
    const [entry, ...more] = (await journal(proxy.baseUrl, '?problems=true')).entries;
    expect(more).toEqual([]);
    expect(entry.operation).toBe('get-own-user');
    expect(entry.problems).toEqual([
      { path: '/avatar_url', message: 'required field is missing' },
      { path: '/user_id', message: 'must be integer' },
      { path: '/brand_new_field', message: 'field is not in the description' },
    ]);
    expect((await journal(proxy.baseUrl, '?problems=false')).entries).toEqual([]);
    // The stand-in upstream reports its own scenario's answer too; the proxy does not (it only journals).
    expect(takeViolations().map((v) => v.operation)).toEqual(['get-own-user']);
  });

  it('lets scenarios answer first: nothing reaches the upstream', async () => {
    await proxy.control.scenarios.activate('rate-limited');
    const res = await get(proxy.baseUrl, '/users/me');
    expect(res.status).toBe(429);
    expect((await journal(upstream.baseUrl)).entries).toEqual([]);
  });

  it('answers 502 UPSTREAM_UNREACHABLE when the upstream is gone', async () => {
    const gone = await startMockServer();
    const base = gone.baseUrl;
    await gone.close();
    const lonely = await startMockServer({ proxy: base });
    try {
      const res = await get(lonely.baseUrl, '/users/me');
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({
        result: 'error',
        code: 'UPSTREAM_UNREACHABLE',
        msg: `The upstream server ${base} did not answer: ECONNREFUSED`,
      });
    } finally {
      await lonely.close();
    }
  });
});

describe('--proxy-only', () => {
  it('sends only the named operations upstream; the mock answers the rest from its state', async () => {
    const partial = await startMockServer({ proxy: upstream.baseUrl, proxyOnly: ['get-own-user'] });
    try {
      expect((await get(partial.baseUrl, '/users/me')).status).toBe(200);
      expect((await get(partial.baseUrl, '/users')).status).toBe(200);
      // (newest first; the proxy asks the upstream's server_settings once, for the level to check answers at)
      expect((await journal(upstream.baseUrl)).entries.map((e) => e.operation)).toEqual([
        'get-server-settings',
        'get-own-user',
      ]);
    } finally {
      await partial.close();
    }
  });

  it('refuses an operation the description does not have', async () => {
    await expect(startMockServer({ proxy: upstream.baseUrl, proxyOnly: ['no-such-thing'] })).rejects.toThrow(
      '--proxy-only: the description has no operation no-such-thing',
    );
  });
});
