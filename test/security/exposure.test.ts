// What must not leak or get through: a private channel's subscribers, messages and email address
// for users outside it; request bodies past the limit (413 envelope, state untouched, for every
// operation); the control API without its token beyond loopback; fixture, scenario and inspector
// paths that try to leave their folders. (test/control/control-api.test.ts checks the basic
// closed-control-API case; the token cases here cover the path variants too.)
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedContract } from '../../src/server.js';
import { BODY_LIMIT_BYTES } from '../../src/http/body.js';
import { startMockServer } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { send, type RawRequest } from '../fuzz/raw-http.js';
import { basic, multipartBody } from '../fuzz/requests.js';
import { baseRequest } from '../fuzz/transport-requests.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const OUTSIDERS = ['othello', 'shiva', 'polonius', 'hamlet-bot'];
const core = () => t.server.world.store.streams.by('name', 'core team')!;
const coreMessageIds = () =>
  t.server.world.store.messages.filter((m) => m.stream_id === core().stream_id).map((m) => m.id);

describe('a private channel, seen from outside', () => {
  it.each(OUTSIDERS)('is not among the subscriptions of %s, with or without subscriber lists', async (who) => {
    for (const include of [false, true, 'partial']) {
      const subs = (await t.as(who).get('/users/me/subscriptions', { include_subscribers: include })).body
        .subscriptions;
      expect(
        subs.some((s: any) => s.stream_id === core().stream_id || s.name === 'core team'),
        `${who} ${include}`,
      ).toBe(false);
    }
  });

  it.each(OUTSIDERS)('gives %s none of its messages through matches_narrow', async (who) => {
    const ids = coreMessageIds();
    expect(ids.length).toBeGreaterThan(0);
    for (const narrow of [
      [],
      [{ operator: 'channel', operand: 'core team' }],
      [{ operator: 'channel', operand: core().stream_id }],
    ]) {
      const r = await t.as(who).get('/messages/matches_narrow', { msg_ids: ids, narrow });
      expect(r.status).toBe(200);
      expect(r.body.messages, `${who} ${JSON.stringify(narrow)}`).toEqual({});
    }
  });

  it.each(OUTSIDERS)(
    'answers %s about its email address exactly as about a channel that does not exist',
    async (who) => {
      const hidden = await t.as(who).get(`/streams/${core().stream_id}/email_address`);
      const missing = await t.as(who).get('/streams/99999/email_address');
      expect(hidden.status).toBe(400);
      expect(hidden.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
      expect(hidden.body).toEqual(missing.body);
    },
  );

  it('shows all three to a subscriber (so the checks above can fail)', async () => {
    const subs = (await t.as('hamlet').get('/users/me/subscriptions', { include_subscribers: true })).body
      .subscriptions;
    expect(subs.find((s: any) => s.name === 'core team').subscribers).toContain(t.user('hamlet').user_id);
    const r = await t.as('hamlet').get('/messages/matches_narrow', { msg_ids: coreMessageIds(), narrow: [] });
    expect(Object.keys(r.body.messages).map(Number).sort()).toEqual(coreMessageIds().sort());
    expect((await t.as('hamlet').get(`/streams/${core().stream_id}/email_address`)).body.email).toMatch(/^core-team\./);
  });
});

describe('request bodies past the limit', () => {
  const tooLarge = { result: 'error', code: 'BAD_REQUEST', msg: 'Request body too large' };
  const auth = () => basic(t.user('hamlet').email, t.user('hamlet').api_key);
  const bodies: Array<[string, (req: RawRequest) => RawRequest]> = [
    [
      'a form',
      (r) => ({
        ...r,
        headers: { ...r.headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.concat([Buffer.from('content='), Buffer.alloc(BODY_LIMIT_BYTES, 'a')]),
      }),
    ],
    [
      'a multipart body',
      (r) => ({
        ...r,
        headers: { ...r.headers, 'content-type': 'multipart/form-data; boundary=b' },
        body: multipartBody(
          [
            ['a', 'x'.repeat(BODY_LIMIT_BYTES / 2)],
            ['b', 'y'.repeat(BODY_LIMIT_BYTES / 2)],
          ],
          'b',
        ),
      }),
    ],
    [
      'a gzip form that inflates past the limit',
      (r) => ({
        ...r,
        headers: { ...r.headers, 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
        body: gzipSync(Buffer.alloc(4 * BODY_LIMIT_BYTES, 'a')),
      }),
    ],
  ];

  it.each(sharedContract().operations.map((op) => [op.id, op] as const))(
    '%s answers a 413 envelope and changes nothing',
    async (_id, op) => {
      const before = JSON.stringify(t.server.world.store.state);
      for (const [what, make] of bodies) {
        // An upload (a file, a custom emoji image) may carry up to max_file_upload_size_mib, a bot's
        // avatar or one's own up to max_avatar_file_size_mib: their multipart limit is larger (test/uploads,
        // test/bots, test/users).
        if (
          ['upload-file', 'upload-custom-emoji', 'create-bot', 'update-bot', 'upload-avatar'].includes(op.id) &&
          what === 'a multipart body'
        )
          continue;
        const res = await send(t.base, make(baseRequest(sharedContract().doc, op, auth())));
        expect(res.status, `${op.id}: ${what}`).toBe(413);
        expect(res.json, `${op.id}: ${what}`).toEqual(tooLarge);
      }
      expect(JSON.stringify(t.server.world.store.state)).toBe(before);
    },
  );

  it('answers a 413 envelope on the control API too', async () => {
    // (PUT /__mock/state takes far more: an import takes back whatever an export gave.)
    const r = await fetch(`${t.base}/__mock/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ definition: { pad: 'x'.repeat(BODY_LIMIT_BYTES) } }),
    });
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual(tooLarge);
  });
});

describe('the control API beyond loopback', () => {
  const variants = [
    '/__mock/info',
    '/__MOCK/info',
    '//__mock/info',
    '/__mock//info',
    '/sandbox/x/__mock/info',
    '/__mock/info/',
  ];

  it('refuses every path variant without the right token, and accepts the token', async () => {
    const mock = await startMockServer({ host: '0.0.0.0', controlToken: 's3cret' });
    try {
      const base = `http://127.0.0.1:${new URL(mock.baseUrl).port}`;
      for (const path of variants) {
        const attempts: Array<Record<string, string>> = [
          {},
          { 'x-mock-token': 'wrong' },
          { 'x-mock-token': '' },
          { 'x-mock-token': 'S3CRET' },
        ];
        for (const headers of attempts) {
          const res = await send(base, { method: 'GET', path, headers });
          expect(res.status, `${path} ${JSON.stringify(headers)}`).not.toBe(200);
          expect(res.json.result).toBe('error');
        }
      }
      const before = JSON.stringify(mock.server.world.store.state);
      const reset = await send(base, {
        method: 'PUT',
        path: '/__mock/state',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"state":{"realm":{}}}'),
      });
      expect(reset.status).toBe(401);
      expect(JSON.stringify(mock.server.world.store.state)).toBe(before);
      expect(
        (await send(base, { method: 'GET', path: '/__mock/info', headers: { 'x-mock-token': 's3cret' } })).status,
      ).toBe(200);
    } finally {
      await mock.close();
    }
  });

  it('stays closed, token or not, when no token was configured', async () => {
    const mock = await startMockServer({ host: '0.0.0.0' });
    try {
      const base = `http://127.0.0.1:${new URL(mock.baseUrl).port}`;
      for (const path of variants) {
        const res = await send(base, { method: 'GET', path, headers: { 'x-mock-token': 'anything' } });
        expect(res.status, path).not.toBe(200);
      }
      const res = await send(base, {
        method: 'POST',
        path: '/__mock/reset',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{}'),
      });
      expect(res.status).toBe(401);
      expect(res.json.msg).toContain('--control-token');
    } finally {
      await mock.close();
    }
  });
});

describe('paths given through the control API', () => {
  const control = (method: string, path: string, body: unknown) =>
    send(t.base, {
      method,
      path,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(body)),
    });
  const ESCAPES = [
    '../fixtures/default',
    '../../etc/passwd',
    '/etc/passwd',
    '..',
    '.',
    'default/../default',
    'default.json',
    '..\\default',
    '%2e%2e%2fdefault',
    'default\u0000',
    '',
  ];

  it.each(ESCAPES)('a fixture named %j cannot be loaded', async (name) => {
    const before = JSON.stringify(t.server.world.store.state);
    const res = await control('POST', '/__mock/reset', { fixture: name });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('BAD_REQUEST');
    expect(JSON.stringify(t.server.world.store.state)).toBe(before);
  });

  it.each(ESCAPES.filter(Boolean))(
    'a scenario named %j cannot be loaded, by the control API or by header',
    async (name) => {
      const res = await control('POST', '/__mock/scenarios', { name });
      expect(res.status).toBe(400);
      expect(t.server.world.parts.scenarios.active).toEqual([]);
      const byHeader = await t.as('hamlet', { 'X-Mock-Scenario': encodeURIComponent(name) }).get('/users/me');
      expect(byHeader.status).toBe(400);
      expect(byHeader.body.msg).toMatch(/^Invalid scenario name/);
    },
  );

  it.each([
    '/__mock/ui/../../package.json',
    '/__mock/ui/%2e%2e/%2e%2e/package.json',
    '/__mock/ui/..%2f..%2fpackage.json',
    '/__mock/ui/%2e%2e%2f%2e%2e%2fpackage.json',
    '/__mock/ui/....//....//package.json',
    '/__mock/ui/..%5c..%5cpackage.json',
    '/__mock/ui//etc/passwd',
  ])('the inspector does not serve %s', async (path) => {
    const res = await send(t.base, { method: 'GET', path, headers: {} });
    expect(res.status).not.toBe(200);
    expect(res.text).not.toContain('teamchat-mock"');
    expect(res.text).not.toContain('root:');
  });

  it('the inspector still serves its own files', async () => {
    const res = await send(t.base, { method: 'GET', path: '/__mock/ui/index.html', headers: {} });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
