// Bounded memory and clean answers: sandboxes made only for routed, authenticated requests and
// capped; event queues capped per user and in events held, events shared between queues;
// scenarios that would send broken HTTP refused when loaded; no secrets in the journal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { MAX_EVENTS_PER_QUEUE, MAX_QUEUES_PER_USER } from '../../src/domain/events/hub.js';
import { REDACTED } from '../../src/control/redact.js';
import { requestLogger } from '../../src/request-log.js';
import { download, temporaryUrlOf, upload } from '../helpers/uploads.js';

describe('sandboxes', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ maxSandboxes: 3 });
  });
  afterAll(() => t.close());

  it('are not made for unauthenticated requests or unknown routes', async () => {
    const anonymous = await fetch(`${t.base}/api/v1/users/me`, { headers: { 'X-Mock-Sandbox': 'nobody-1' } });
    expect(anonymous.status).toBe(401);
    const badKey = await fetch(`${t.base}/api/v1/users/me`, {
      headers: {
        'X-Mock-Sandbox': 'nobody-2',
        authorization: `Basic ${Buffer.from('hamlet@zulip.com:wrong').toString('base64')}`,
      },
    });
    expect(badKey.status).toBe(401);
    expect((await fetch(`${t.base}/sandbox/nobody-3/api/v1/no/such/route`)).status).toBe(404);
    expect((await fetch(`${t.base}/__mock/no-such`, { headers: { 'X-Mock-Sandbox': 'nobody-4' } })).status).toBe(404);
    expect([...t.server.sandboxes.keys()]).toEqual([]);
  });

  it('are made for an authenticated request, up to the cap, then refused', async () => {
    for (const name of ['a', 'b', 'c'])
      expect((await t.as('hamlet', { 'X-Mock-Sandbox': name }).get('/users/me')).status).toBe(200);
    const refused = await t.as('hamlet', { 'X-Mock-Sandbox': 'd' }).get('/users/me');
    expectError(
      refused,
      400,
      'BAD_REQUEST',
      'Too many sandboxes: at most 3 at once (--max-sandboxes); drop one with DELETE /__mock/sandboxes/NAME or let one stay idle for 30 minutes',
    );
    const control = await fetch(`${t.base}/__mock/info`, { headers: { 'X-Mock-Sandbox': 'e' } });
    expect(control.status).toBe(400);
    expect([...t.server.sandboxes.keys()]).toEqual(['a', 'b', 'c']);
    // An existing one still answers, and dropping one makes room.
    expect((await t.as('hamlet', { 'X-Mock-Sandbox': 'a' }).get('/users/me')).status).toBe(200);
    const drop = await fetch(`${t.base}/__mock/sandboxes/a`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await drop.json()).toEqual({ result: 'success', msg: '' });
    expect((await t.as('hamlet', { 'X-Mock-Sandbox': 'd' }).get('/users/me')).status).toBe(200);
  });
});

describe('event queues', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('are capped per user: a new one collects the one polled longest ago', async () => {
    const cordelia = t.as('cordelia');
    const first = (await cordelia.post('/register', { event_types: '["heartbeat"]', fetch_event_types: '[]' })).body
      .queue_id;
    for (let i = 0; i < MAX_QUEUES_PER_USER; i++)
      expect((await cordelia.post('/register', { event_types: '["heartbeat"]', fetch_event_types: '[]' })).status).toBe(
        200,
      );
    expect(t.server.world.events.queuesOf(t.user('cordelia').user_id)).toHaveLength(MAX_QUEUES_PER_USER);
    expectError(
      await cordelia.get('/events', { queue_id: first, last_event_id: -1, dont_block: true }),
      400,
      'BAD_EVENT_QUEUE_ID',
      `Bad event queue ID: ${first}`,
    );
  });

  it("clamp idle_queue_timeout to the real server's week", async () => {
    const res = await t
      .as('othello')
      .post('/register', { event_types: '["message"]', fetch_event_types: '[]', idle_queue_timeout: 10 ** 9 });
    expect(res.body.idle_queue_timeout_secs).toBe(604800);
  });

  it('share one event object, and collect a queue that falls too far behind', async () => {
    const hub = t.server.world.events;
    const a = (
      await t.as('prospero').post('/register', {
        event_types: '["test-event"]',
        fetch_event_types: '[]',
        client_capabilities: '{"empty_topic_name": true}',
      })
    ).body.queue_id;
    const b = (
      await t.as('prospero').post('/register', {
        event_types: '["test-event"]',
        fetch_event_types: '[]',
        client_capabilities: '{"empty_topic_name": true}',
      })
    ).body.queue_id;
    const prospero = t.user('prospero').user_id;
    const payload = { big: 'x'.repeat(2000) };
    hub.publish([prospero], { type: 'test-event', payload });
    const [qa, qb] = hub.queuesOf(prospero);
    expect((qa.contents()[0] as any).payload).toBe(payload);
    expect((qb.contents()[0] as any).payload).toBe(payload);
    for (let i = 0; i < MAX_EVENTS_PER_QUEUE; i++) hub.publish([prospero], { type: 'test-event', i });
    for (const q of [a, b]) {
      expectError(
        await t.as('prospero').get('/events', { queue_id: q, last_event_id: -1, dont_block: true }),
        400,
        'BAD_EVENT_QUEUE_ID',
        `Bad event queue ID: ${q}`,
      );
    }
  });
});

describe('scenarios that would send broken HTTP', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());
  const activate = (respond: unknown) =>
    fetch(`${t.base}/__mock/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ definition: { name: 'broken', rules: [{ operation: 'get-own-user', respond }] } }),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));

  it.each([
    [{ status: 600, body: {} }],
    [{ status: 99, body: {} }],
    [{ status: 0, body: {} }],
    [{ status: 200, body: {}, headers: { 'Transfer-Encoding': 'chunked' } }],
    [{ success: {}, headers: { 'content-length': '5' } }],
    [{ success: {}, headers: { Connection: 'close' } }],
    [{ success: {}, headers: { 'X-Ok': 'a\r\nSet-Cookie: x=1' } }],
  ])('refuses %j', async (respond) => {
    const res = await activate(respond);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    expect(res.body.msg).toMatch(/definition\["rules"\]\[0\]\["respond"\]/);
    expect((await t.as('hamlet').get('/users/me')).status).toBe(200);
  });

  it('still takes ordinary headers and statuses', async () => {
    expect(
      (
        await activate({
          status: 418,
          body: { result: 'error', msg: 'teapot', code: 'BAD_REQUEST' },
          headers: { 'X-Trace': 'one' },
        })
      ).status,
    ).toBe(200);
  });
});

describe('secrets', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('are redacted in the journal, and info names the fixture, not its path', async () => {
    const login = await t
      .anonymous()
      .post('/fetch_api_key', { username: 'hamlet@zulip.com', password: 'password_hamlet' });
    expect(login.body.api_key).toBe(t.user('hamlet').api_key);
    const journal = await (await fetch(`${t.base}/__mock/journal?operation=fetch-api-key`)).json();
    expect(journal.entries[0].params.password).toBe(REDACTED);
    expect(journal.entries[0].response.api_key).toBe(REDACTED);
    expect(JSON.stringify(journal)).not.toContain('password_hamlet');
    expect(JSON.stringify(journal)).not.toContain(t.user('hamlet').api_key);
    const info = await (await fetch(`${t.base}/__mock/info`)).json();
    expect(info.fixture).toBe('classic.json'); // the suite's default (vitest.config.ts)
  });

  it("keep a temporary upload URL's token out of the journal and the request log", async () => {
    const uploaded = await upload(t, 'hamlet', [{ name: 'secret.txt', bytes: Buffer.from('for 60 s only') }]);
    const temporary = await temporaryUrlOf(t, 'hamlet', uploaded.body.url);
    const token = temporary.body.url.split('/')[3];
    expect(token.length).toBeGreaterThan(20);
    expect((await download(t, null, temporary.body.url)).bytes.toString()).toBe('for 60 s only');
    const journal = await (await fetch(`${t.base}/__mock/journal`)).json();
    expect(JSON.stringify(journal)).not.toContain(token);
    const asked = journal.entries.find((e: any) => e.operation === 'get-file-temporary-url');
    expect(asked.response.url).toBe(`/user_uploads/temporary/${REDACTED}/secret.txt`);
    const served = journal.entries.find((e: any) => e.operation === 'get-user-upload-with-token');
    expect(served.path).toBe(`/user_uploads/temporary/${REDACTED}/secret.txt`);
    expect(served.params.token).toBe(REDACTED);
    const lines: string[] = [];
    requestLogger('json', (line) => lines.push(line))({
      method: 'GET',
      path: temporary.body.url,
      operation: null,
      status: 200,
      duration_ms: 1,
      user: null,
      sandbox: 'default',
    } as any);
    expect(JSON.parse(lines[0]).path).toBe(`/user_uploads/temporary/${REDACTED}/secret.txt`);
  });
});
