// One named test per problem the fuzzers found, each failing on the code before its fix.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockServer } from '../../src/server.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../src/contract/decode.js';
import { defaultFixturePath, readStateFile } from '../../src/store/fixture.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { rawExchange, send } from './raw-http.js';
import { basic } from './requests.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const hamlet = () => basic(t.user('hamlet').email, t.user('hamlet').api_key);
const control = (method: string, p: string, body: unknown) =>
  send(t.base, {
    method,
    path: p,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  });

describe('found by the HTTP-layer fuzzer', () => {
  it('answers a request line past 16 KB with a 431 envelope (node sent a bare status line)', async () => {
    const res = await send(t.base, {
      method: 'GET',
      path: `/api/v1/users/me?x=${'a'.repeat(20_000)}`,
      headers: { authorization: hamlet() },
    });
    expect(res.status).toBe(431);
    expect(res.json).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Request header fields too large' });
  });

  it("answers such a HEAD request without a body (a body after HEAD broke the client's parser)", async () => {
    const text = await rawExchange(t.base, `HEAD /api/v1/users/me?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(body).toBe('');
  });

  it('answers multipart without a boundary with a 400 envelope (busboy threw: a 500)', async () => {
    const res = await send(t.base, {
      method: 'POST',
      path: '/api/v1/saved_snippets',
      headers: { authorization: hamlet(), 'content-type': 'multipart/form-data' },
      body: Buffer.from('title=a&content=b'),
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Malformed request body: Multipart: Boundary not found',
    });
  });

  it('answers a truncated multipart body with a 400 envelope (a 500 before)', async () => {
    const body = Buffer.from('--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nunterminated');
    const res = await send(t.base, {
      method: 'POST',
      path: '/api/v1/saved_snippets',
      headers: { authorization: hamlet(), 'content-type': 'multipart/form-data; boundary=b' },
      body,
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(res.json.msg).toMatch(/^Malformed request body: /);
  });

  it('answers an Expect header other than 100-continue with a 417 envelope (node sent no body)', async () => {
    const res = await send(t.base, {
      method: 'GET',
      path: '/api/v1/users/me',
      headers: { authorization: hamlet(), expect: 'nonsense' },
    });
    expect(res.status).toBe(417);
    expect(res.json).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Unsupported Expect header: nonsense' });
  });
});

describe('found by the operation fuzzer', () => {
  it('update-channel-folder: a rename sent with a refused archive renames nothing', async () => {
    t.server.world.reset();
    const folder = t.server.world.store.channelFolders.get(1)!;
    expect(t.server.world.store.streams.find((s) => s.folder_id === folder.id && !s.is_archived)).toBeDefined();
    const before = JSON.stringify(t.server.world.store.state);
    const r = await t
      .as('desdemona')
      .patch(`/channel_folders/${folder.id}`, { name: 'Renamed', description: 'changed', is_archived: true });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('You need to remove all the channels from this folder to archive it.');
    expect(JSON.stringify(t.server.world.store.state)).toBe(before);
  });
});

describe('found by the control API fuzzer', () => {
  it('refuses a clock past the year 9999 and keeps the clock working (the clock broke: every read a 500)', async () => {
    const before = (await control('GET', '/__mock/clock', {})).json.now_ms;
    expect((await control('POST', '/__mock/clock', { set_ms: 1e300 })).status).toBe(400);
    const past = await control('POST', '/__mock/clock', { set_ms: 253402300799999, advance_ms: 1000 });
    expect(past.status).toBe(400);
    expect(past.json.msg).toMatch(/^The clock must stay between 1970 and 9999/);
    const after = await control('GET', '/__mock/clock', {});
    expect(after.status).toBe(200);
    expect(Math.abs(after.json.now_ms - before)).toBeLessThan(60_000);
  });

  it('refuses to jump to a scheduled delivery past the year 9999 (same cause, by another way)', async () => {
    t.server.world.reset();
    const { store } = t.server.world;
    for (const m of [...store.scheduledMessages.all()])
      store.scheduledMessages.update(m, { scheduled_delivery_timestamp: 1e13 });
    for (const r of [...store.reminders.all()]) store.reminders.update(r, { scheduled_delivery_timestamp: 1e13 });
    const r = await control('POST', '/__mock/clock', { to_next_delivery: true });
    expect(r.status).toBe(400);
    expect((await control('GET', '/__mock/clock', {})).status).toBe(200);
    t.server.world.reset();
  });

  it('to_next_delivery with nothing scheduled is refused before anything changes (a set_ms in the same request had already delivered)', async () => {
    t.server.world.reset();
    const { store } = t.server.world;
    const due = Math.max(
      ...store.scheduledMessages.all().map((m) => m.scheduled_delivery_timestamp),
      ...store.reminders.all().map((r) => r.scheduled_delivery_timestamp),
    );
    // Past every delivery in one request: the set delivers them all, and the jump finds nothing more.
    const past = await control('POST', '/__mock/clock', { set_ms: (due + 60) * 1000, to_next_delivery: true });
    expect(past.status).toBe(200);
    expect(Math.abs(past.json.now_ms - (due + 60) * 1000)).toBeLessThan(1000);
    // Now nothing is scheduled: refused, and nothing moves.
    const version = store.version;
    const before = (await control('GET', '/__mock/clock', {})).json.now_ms;
    const r = await control('POST', '/__mock/clock', { set_ms: (due + 3600) * 1000, to_next_delivery: true });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Nothing is scheduled' });
    expect(store.version).toBe(version);
    expect(Math.abs((await control('GET', '/__mock/clock', {})).json.now_ms - before)).toBeLessThan(60_000);
    await control('POST', '/__mock/clock', { real: true });
    t.server.world.reset();
  });

  it('refuses a snapshot with a broken row, naming it, and changes nothing (the store threw a TypeError: a 500)', async () => {
    const state: any = structuredClone(t.server.world.store.state);
    state.users.push({ full_name: 'no id, no email' });
    const before = JSON.stringify(t.server.world.store.state);
    const r = await control('PUT', '/__mock/state', { state });
    expect(r.status).toBe(400);
    expect(r.json.msg).toBe(`state: $.users[${state.users.length - 1}].user_id is missing`);
    expect(JSON.stringify(t.server.world.store.state)).toBe(before);
  });

  const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
  it.each([
    ['an imported state', 'PUT', '/__mock/state', `{"state":${deepObject(60_000)}}`, 'state'],
    [
      'a scenario state patch',
      'POST',
      '/__mock/scenarios',
      `{"definition":{"name":"deep","state":{"realm":${deepObject(60_000)}}}}`,
      'definition',
    ],
    [
      'a scenario success body',
      'POST',
      '/__mock/scenarios',
      `{"definition":{"name":"deep","rules":[{"operation":"get-own-user","respond":{"success":${deepObject(60_000)}}}]}}`,
      'definition',
    ],
  ])(
    'refuses JSON nested 60,000 deep in %s (stack overflow: a 500, then every listing of scenarios too)',
    async (_what, method, p, body, name) => {
      const before = JSON.stringify(t.server.world.store.state);
      const res = await send(t.base, {
        method,
        path: p,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(body),
      });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: `${name} is nested too deeply (limit: 100 levels)`,
      });
      expect(JSON.stringify(t.server.world.store.state)).toBe(before);
      expect(t.server.world.parts.scenarios.active).toEqual([]);
      expect((await control('GET', '/__mock/scenarios', {})).status).toBe(200);
    },
  );

  it("applies the same depth limit to the API's JSON fields, counting levels exactly", async () => {
    const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(nestedDeeperThan(JSON.parse(nest(100)), MAX_JSON_DEPTH)).toBe(false);
    expect(nestedDeeperThan(JSON.parse(nest(101)), MAX_JSON_DEPTH)).toBe(true);
    expect(nestedDeeperThan({ a: [{ b: 1 }], c: 'x' }, 2)).toBe(true);
    expect(nestedDeeperThan({ a: [1, 2], c: 'x' }, 2)).toBe(false);
    const r = await t.as('hamlet').post('/register', { event_types: nest(101) });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'event_types is nested too deeply (limit: 100 levels)',
    });
  });

  it('still takes a whole state snapshot, which nests far less than the limit', async () => {
    const res = await control('PUT', '/__mock/state', { state: t.server.world.store.state });
    expect(res.status).toBe(200);
  });

  it.each([
    [
      'a duplicate email (any case)',
      (s: any) => s.users.push({ ...s.users[0], user_id: 999, email: s.users[0].email.toUpperCase() }),
      /"users"\[\d+\] repeats the email/,
    ],
    [
      'a duplicate subscription',
      (s: any) => s.subscriptions.push({ ...s.subscriptions[0] }),
      /"subscriptions"\[\d+\] repeats the user_id\+stream_id/,
    ],
    [
      'a message without a topic',
      (s: any) => {
        delete s.messages[0].topic;
      },
      /\$\.messages\[0\]\.topic is missing/,
    ],
    ['a row that is not an object', (s: any) => s.streams.push(null), /\$\.streams\[\d+\] must be object/],
  ])('names the file and the row for a fixture with %s', (_what, corrupt, message) => {
    const state: any = readStateFile(defaultFixturePath());
    corrupt(state);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'teamchat-fixture-')), 'hand-edited.json');
    writeFileSync(file, JSON.stringify(state));
    expect(() => new MockServer({ fixture: file, log: () => {} })).toThrow(message);
    expect(() => new MockServer({ fixture: file, log: () => {} })).toThrow(file);
  });
});
