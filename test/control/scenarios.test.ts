// Every shipped scenario, activated each of the three ways (at start, through the control API,
// for one request by header), answers with the exact status, code, fields and headers.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer, type CallResult } from '../helpers/server.js';
import { ControlClient } from '../../src/control/client.js';

interface Expectation {
  call: (t: TestServer, headers?: Record<string, string>) => Promise<CallResult>;
  status: number;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** For scenarios that change timing rather than the answer. */
  minMs?: number;
}

const pushTest = (t: TestServer, h?: Record<string, string>) =>
  t.as('hamlet', h).post('/mobile_push/e2ee/test_notification');
const sendToDenmark = (t: TestServer, h?: Record<string, string>) =>
  t.as('hamlet', h).post('/messages', { type: 'stream', to: 'Denmark', topic: 'plans', content: 'hello @**all**' });

const expectations: Record<string, Expectation> = {
  'no-active-push-device': {
    call: pushTest,
    status: 400,
    body: { result: 'error', msg: 'No active registered push device', code: 'NO_ACTIVE_PUSH_DEVICE' },
  },
  'admin-action-required': {
    call: pushTest,
    status: 403,
    body: {
      result: 'error',
      msg: 'Push notification configuration issue on server, contact the server administrator or retry later.',
      code: 'ADMIN_ACTION_REQUIRED',
    },
  },
  'failed-to-connect-bouncer': {
    call: pushTest,
    status: 502,
    body: {
      result: 'error',
      msg: 'Network error while connecting to Zulip push notification service.',
      code: 'FAILED_TO_CONNECT_BOUNCER',
    },
  },
  'internal-server-error-on-bouncer': {
    call: pushTest,
    status: 502,
    body: {
      result: 'error',
      msg: 'Internal server error on Zulip push notification service, retry later.',
      code: 'INTERNAL_SERVER_ERROR_ON_BOUNCER',
    },
  },
  'flaky-push-relay': {
    call: pushTest,
    status: 502,
    body: {
      result: 'error',
      msg: 'Network error while connecting to Zulip push notification service.',
      code: 'FAILED_TO_CONNECT_BOUNCER',
    },
  },
  'stream-wildcard-mention-not-allowed': {
    call: sendToDenmark,
    status: 400,
    body: {
      result: 'error',
      msg: 'You do not have permission to use channel wildcard mentions in this channel.',
      code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
    },
  },
  'topic-wildcard-mention-not-allowed': {
    call: sendToDenmark,
    status: 400,
    body: {
      result: 'error',
      msg: 'You do not have permission to use topic wildcard mentions in this topic.',
      code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
    },
  },
  'stream-does-not-exist': {
    call: (t, h) =>
      t.as('hamlet', h).post('/messages', { type: 'stream', to: 'Atlantis', topic: 'plans', content: 'hello' }),
    status: 400,
    body: {
      result: 'error',
      msg: "Channel 'Atlantis' does not exist",
      code: 'STREAM_DOES_NOT_EXIST',
      stream: 'Atlantis',
    },
  },
  'moderation-channel-not-configured': {
    call: (t, h) => t.as('hamlet', h).post('/messages/1/report', { report_type: 'spam' }),
    status: 400,
    body: {
      result: 'error',
      msg: 'Moderation request channel must be specified to enable message reporting.',
      code: 'BAD_REQUEST',
    },
  },
  'rate-limited': {
    call: (t, h) => t.as('hamlet', h).get('/users/me'),
    status: 429,
    body: { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 28.5 },
    headers: { 'retry-after': '29' },
  },
  'bad-event-queue': {
    call: (t, h) => t.as('hamlet', h).get('/events', { queue_id: '1517975029:0', last_event_id: -1, dont_block: true }),
    status: 400,
    body: {
      result: 'error',
      msg: 'Bad event queue ID: 1517975029:0',
      code: 'BAD_EVENT_QUEUE_ID',
      queue_id: '1517975029:0',
    },
  },
  'deactivated-account': {
    call: (t, h) => t.as('hamlet', h).get('/users/me'),
    status: 401,
    body: { result: 'error', msg: 'Account is deactivated', code: 'UNAUTHORIZED' },
    headers: { 'www-authenticate': 'Basic realm="zulip"' },
  },
  'presence-account-deactivated': {
    call: (t, h) => t.as('hamlet', h).post('/users/me/presence', { status: 'active' }),
    status: 401,
    body: { result: 'error', msg: 'Account is deactivated', code: 'UNAUTHORIZED' },
    headers: { 'www-authenticate': 'Basic realm="zulip"' },
  },
  'slow-server': { call: (t, h) => t.as('hamlet', h).get('/users/me'), status: 200, minMs: 780 },
  'upload-too-large': {
    call: (t, h) => t.as('hamlet', h).post('/user_uploads'),
    status: 400,
    body: {
      result: 'error',
      msg: "File is larger than this server's configured maximum upload size (25 MiB).",
      code: 'BAD_REQUEST',
    },
  },
  'upload-quota-exceeded': {
    call: (t, h) => t.as('hamlet', h).post('/user_uploads'),
    status: 400,
    body: { result: 'error', msg: "Upload would exceed your organization's upload quota.", code: 'REALM_UPLOAD_QUOTA' },
  },
  'drafts-sync-disabled': {
    call: (t, h) => t.as('hamlet', h).get('/drafts'),
    status: 400,
    body: { result: 'error', msg: 'User has disabled synchronizing drafts.', code: 'BAD_REQUEST' },
  },
  'edit-history-disabled': {
    call: (t, h) => t.as('hamlet', h).get('/messages/1/history'),
    status: 400,
    body: { result: 'error', msg: 'Message edit history is disabled in this organization', code: 'BAD_REQUEST' },
  },
  'read-receipts-disabled': {
    call: (t, h) => t.as('hamlet', h).get('/messages/1/read_receipts'),
    status: 400,
    body: { result: 'error', msg: 'Read receipts are disabled in this organization.', code: 'BAD_REQUEST' },
  },
  'bot-storage-full': {
    call: (t, h) => t.as('hamlet-bot', h).call('PUT', '/bot_storage', { storage: { counter: '1' } }),
    status: 400,
    body: {
      result: 'error',
      msg: 'Request exceeds storage limit by 32 characters. The limit is 10000000 characters.',
      code: 'BAD_REQUEST',
    },
  },
  'custom-emoji-not-allowed': {
    call: (t, h) => t.as('hamlet', h).post('/realm/emoji/party_parrot'),
    status: 400,
    body: { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' },
  },
  'user-already-muted': {
    call: (t, h) => t.as('hamlet', h).post(`/users/me/muted_users/${t.user('othello').user_id}`),
    status: 400,
    body: { result: 'error', msg: 'User already muted', code: 'BAD_REQUEST' },
  },
};

let t: TestServer | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function check(name: string, how: 'start' | 'control' | 'header'): Promise<void> {
  const e = expectations[name];
  t = await startTestServer(how === 'start' ? { scenarios: [name] } : {});
  if (how === 'control') await new ControlClient(t.base).scenarios.activate(name);
  const began = performance.now();
  const r = await e.call(t, how === 'header' ? { 'X-Mock-Scenario': name } : undefined);
  const took = performance.now() - began;
  expect(r.status).toBe(e.status);
  if (e.body) expect(r.body).toEqual(e.body);
  for (const [h, v] of Object.entries(e.headers ?? {})) expect(r.headers.get(h)).toBe(v);
  if (e.minMs) expect(took).toBeGreaterThanOrEqual(e.minMs);
  const [entry] = (await new ControlClient(t.base).journal.list({ limit: 1 })).entries;
  expect(entry.scenario).toBe(e.minMs ? null : how === 'header' ? name : name);
}

describe('shipped scenarios', () => {
  it('has an expectation for every file of scenarios/', () => {
    const names = readdirSync(new URL('../../scenarios/', import.meta.url))
      .map((f) => f.replace(/\.[^.]+$/, ''))
      .sort();
    expect(names).toEqual(Object.keys(expectations).sort());
  });

  for (const name of Object.keys(expectations)) {
    for (const how of ['start', 'control', 'header'] as const) {
      it(`${name}, activated ${how === 'start' ? 'at start' : how === 'control' ? 'through the control API' : 'by header for one request'}`, () =>
        check(name, how));
    }
  }
});

describe('scenario mechanics', () => {
  it('the flaky relay fails twice, then the request goes through to the real behaviour', async () => {
    t = await startTestServer({ scenarios: ['flaky-push-relay'] });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await pushTest(t)).status);
    expect(statuses).toEqual([502, 502, 200]);
    const { active } = await new ControlClient(t.base).scenarios.list();
    expect(active[0]).toMatchObject({ name: 'flaky-push-relay', hits: 2, state: 'recovered' });
  });

  it('a header scenario affects only that request', async () => {
    t = await startTestServer();
    expect((await t.as('hamlet', { 'X-Mock-Scenario': 'rate-limited' }).get('/users/me')).status).toBe(429);
    expect((await t.as('hamlet').get('/users/me')).status).toBe(200);
  });

  it('an unknown scenario name in the header is a clear error', async () => {
    t = await startTestServer();
    const r = await t.as('hamlet', { 'X-Mock-Scenario': 'no-such-thing' }).get('/users/me');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: "No scenario named 'no-such-thing'", code: 'BAD_REQUEST' });
  });

  it('deactivating restores normal answers; hit counts are listed', async () => {
    t = await startTestServer();
    const control = new ControlClient(t.base);
    await control.scenarios.activate('rate-limited');
    await t.as('hamlet').get('/users/me');
    await t.as('hamlet').get('/users/me');
    expect((await control.scenarios.list()).active).toMatchObject([{ name: 'rate-limited', hits: 2 }]);
    expect(await control.scenarios.deactivate('rate-limited')).toEqual(['rate-limited']);
    expect((await t.as('hamlet').get('/users/me')).status).toBe(200);
  });

  it('inline rules match by parameters, by user and by call count, with times and once', async () => {
    t = await startTestServer();
    const control = new ControlClient(t.base);
    await control.scenarios.activate({
      name: 'custom',
      rules: [
        {
          operation: 'send-message',
          params: { topic: 'doomed' },
          respond: { error: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED' },
        },
        {
          operation: 'get-own-user',
          user: 'othello@zulip.com',
          once: true,
          respond: { success: { full_name: 'Injected' } },
        },
        {
          operation: 'get-linkifiers',
          calls: { from: 2, to: 2 },
          respond: { error: { code: 'BAD_REQUEST', msg: 'second call fails' } },
        },
      ],
    });
    const send = (topic: string) =>
      t!.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic, content: 'x' });
    expect((await send('doomed')).body.code).toBe('STREAM_WILDCARD_MENTION_NOT_ALLOWED');
    expect((await send('fine')).status).toBe(200);
    expect((await t.as('hamlet').get('/users/me')).body.full_name).toBe('King Hamlet');
    const injected = await t.as('othello').get('/users/me');
    expect(injected.body).toEqual({ result: 'success', msg: '', full_name: 'Injected' });
    expect((await t.as('othello').get('/users/me')).body.full_name).toBe('Othello, the Moor of Venice');
    const calls = [];
    for (let i = 0; i < 3; i++) calls.push((await t.as('hamlet').get('/realm/linkifiers')).body.msg);
    expect(calls).toEqual(['', 'second call fails', '']);
    // The injected success body breaks get-own-user's schema: reported like any other response.
    const { takeViolations } = await import('../setup/contract-guard.js');
    expect(takeViolations().map((v) => v.operation)).toEqual(['get-own-user']);
  });

  it('a dropped connection closes the socket without an answer, and is journaled', async () => {
    t = await startTestServer();
    const control = new ControlClient(t.base);
    await control.scenarios.activate({ name: 'drop', rules: [{ operation: 'get-own-user', respond: { drop: true } }] });
    await expect(t.as('hamlet').get('/users/me')).rejects.toThrow();
    const [entry] = (await control.journal.list({ operation: 'get-own-user' })).entries;
    expect(entry.scenario).toBe('drop');
  });

  it('a JSON scenario patches the state on activation', async () => {
    t = await startTestServer();
    await new ControlClient(t.base).scenarios.activate('moderation-channel-not-configured');
    expect(t.server.world.store.realm.moderation_request_channel_id).toBeNull();
  });

  it("a rule answers with one of its operation's described examples, by name", async () => {
    t = await startTestServer();
    const control = new ControlClient(t.base);
    // mute-user describes three BAD_REQUEST wordings; the name picks one without restating it.
    await control.scenarios.activate({
      name: 'pick',
      rules: [
        { operation: 'mute-user', params: { muted_user_id: t.user('cordelia').user_id }, respond: { example: 'self' } },
        { operation: 'mute-user', respond: { example: 'no_such_user' } },
        { operation: 'get-own-user', respond: { example: 'deactivated' } },
      ],
    });
    const mute = (who: string) => t!.as('hamlet').post(`/users/me/muted_users/${t!.user(who).user_id}`);
    const mutedBefore = t.user('hamlet').muted_users;
    expect((await mute('cordelia')).body).toEqual({ result: 'error', msg: 'Cannot mute self', code: 'BAD_REQUEST' });
    expect((await mute('othello')).body).toEqual({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    // A shared 401 example comes with the header the real server sends with it.
    const me = await t.as('hamlet').get('/users/me');
    expect(me.status).toBe(401);
    expect(me.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
    expect(t.user('hamlet').muted_users).toEqual(mutedBefore);
  });

  it('refuses an example its operation does not describe, or a rule without an operation, when activated', async () => {
    t = await startTestServer();
    const activate = (definition: unknown) =>
      fetch(`${t!.base}/__mock/scenarios`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ definition }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    let r = await activate({ name: 'typo', rules: [{ operation: 'mute-user', respond: { example: 'already_mute' } }] });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(
      "Scenario 'typo', rule 1: operation mute-user has no example named 'already_mute' (its examples: self, no_such_user, already_muted, no_credentials, invalid_key, deactivated, realm_deactivated, rate_limited)",
    );
    r = await activate({ name: 'nowhere', rules: [{ method: 'POST', respond: { example: 'already_muted' } }] });
    expect(r.body.msg).toBe(
      "Scenario 'nowhere', rule 1: respond.example needs the rule's operation (examples belong to an operation)",
    );
    r = await activate({ name: 'unknown-op', rules: [{ operation: 'mute-users', respond: { example: 'self' } }] });
    expect(r.body.msg).toBe(
      "Scenario 'unknown-op', rule 1: no operation 'mute-users' (an example belongs to the rule's operation)",
    );
    r = await activate({
      name: 'both',
      rules: [{ operation: 'mute-user', respond: { example: 'self', error: 'BAD_REQUEST' } }],
    });
    expect(r.status).toBe(400);
    expect((await new ControlClient(t.base).scenarios.list()).active).toEqual([]);
  });

  it('refuses a scenario file naming an unknown example when the server starts with it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'scenario-'));
    const file = path.join(dir, 'typo.json');
    writeFileSync(file, JSON.stringify({ rules: [{ operation: 'upload-file', respond: { example: 'too_big' } }] }));
    await expect(startTestServer({ scenarios: [file] })).rejects.toThrow(
      "Scenario 'typo', rule 1: operation upload-file has no example named 'too_big'",
    );
  });

  it("a script naming an unknown example gets the scenario's error as its answer, saying which names exist", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'scenario-'));
    const file = path.join(dir, 'scripted.ts');
    writeFileSync(
      file,
      "export default { rules: [{ operation: 'mute-user', respond: () => ({ example: 'muted_already' }) }] };\n",
    );
    t = await startTestServer({ scenarios: [file] });
    const r = await t.as('hamlet').post(`/users/me/muted_users/${t.user('othello').user_id}`);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(
      "Scenario 'scripted': operation mute-user has no example named 'muted_already' (its examples: self, no_such_user, already_muted, no_credentials, invalid_key, deactivated, realm_deactivated, rate_limited)",
    );
    const [entry] = (await new ControlClient(t.base).journal.list({ limit: 1 })).entries;
    expect(entry.scenario).toBe('scripted');
  });

  it('names from the control API cannot leave scenarios/', async () => {
    t = await startTestServer();
    const res = await fetch(`${t.base}/__mock/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '../package' }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('BAD_REQUEST');
  });
});
