// The control API through its typed client, from startMockServer as a test runner would use it:
// the journal and verification, reset, clock, state snapshots, sandboxes and the token gate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type StartedMock, ControlError } from '../../src/index.js';
import { basicAuth, Client } from '../helpers/server.js';
import { zulipLogin } from '../helpers/zulip-js.js';

let mock: StartedMock;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(async () => {
  await mock.close();
});

const as = (who: string, base = mock.baseUrl, headers?: Record<string, string>) => {
  const u = mock.server.world.store.users.by('email', mock.user(who).email)!;
  return new Client(base, u, headers);
};

describe('startMockServer', () => {
  it('gives the base URL and the fixture users with credentials', async () => {
    expect(mock.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const iago = mock.user('iago');
    expect(iago).toMatchObject({ email: 'iago@zulip.com', role: 200, is_bot: false });
    expect(iago.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await mock.control.info()).zulip_feature_level).toBeGreaterThanOrEqual(496);
  });
});

describe('the journal', () => {
  it('records each request with user, operation, decoded parameters, status and code', async () => {
    await mock.control.journal.clear();
    await as('hamlet').post('/user_topics', { stream_id: 1, topic: 'journal', visibility_policy: 1 });
    await as('othello').post('/user_topics', { stream_id: 'x', topic: 'journal', visibility_policy: 1 });
    const { count, entries } = await mock.control.journal.list();
    expect(count).toBe(2);
    expect(entries[0]).toMatchObject({
      method: 'POST',
      path: '/user_topics',
      operation: 'update-user-topic',
      user: 'othello@zulip.com',
      status: 400,
      code: 'BAD_REQUEST',
      params: { stream_id: 'x', topic: 'journal', visibility_policy: '1' },
      problems: [],
    });
    expect(entries[1]).toMatchObject({
      user: 'hamlet@zulip.com',
      status: 200,
      code: null,
      params: { stream_id: 1, topic: 'journal', visibility_policy: 1 },
    });
    expect(entries[1].response).toEqual({ result: 'success', msg: '' });
  });

  it('filters by operation, user and status', async () => {
    await mock.control.journal.clear();
    await as('hamlet').get('/users/me');
    await as('iago').get('/users/me');
    await as('iago').get('/realm/linkifiers');
    await as('iago').post('/user_topics', {});
    expect((await mock.control.journal.list({ operation: 'get-own-user' })).count).toBe(2);
    expect((await mock.control.journal.list({ user: 'iago@zulip.com' })).count).toBe(3);
    expect((await mock.control.journal.list({ status: 400 })).entries.map((e) => e.code)).toEqual([
      'REQUEST_VARIABLE_MISSING',
    ]);
    expect((await mock.control.journal.list({ operation: 'get-own-user', user: 'hamlet@zulip.com' })).count).toBe(1);
  });

  it('answers "was this operation called with these parameters, how many times"', async () => {
    await mock.control.journal.clear();
    for (const topic of ['a', 'b', 'a'])
      await as('hamlet').post('/user_topics', { stream_id: 1, topic, visibility_policy: 0 });
    expect((await mock.control.journal.verify({ operation: 'update-user-topic', params: { topic: 'a' } })).count).toBe(
      2,
    );
    expect((await mock.control.journal.verify({ operation: 'update-user-topic', params: { topic: 'c' } })).count).toBe(
      0,
    );
    expect(
      (
        await mock.control.journal.verify({
          operation: 'update-user-topic',
          params: { stream_id: 1 },
          user: 'hamlet@zulip.com',
          status: 200,
        })
      ).count,
    ).toBe(3);
    const viaQuery = await mock.control.journal.list({ operation: 'update-user-topic', params: { topic: 'b' } });
    expect(viaQuery.count).toBe(1);
  });

  it('stays bounded in entries', async () => {
    const small = await startMockServer({ journalEntries: 3 });
    try {
      for (let i = 0; i < 5; i++) await fetch(`${small.baseUrl}/api/v1/server_settings`);
      const page = await small.control.journal.list();
      expect(page.count).toBe(3);
    } finally {
      await small.close();
    }
  });
});

describe('reset, state and clock', () => {
  it('exports, imports and resets the state', async () => {
    const snapshot = await mock.control.state.export();
    expect(snapshot.users.length).toBe(mock.users.length);
    const changed = structuredClone(snapshot);
    changed.realm.name = 'Imported Org';
    await mock.control.state.import(changed);
    expect(mock.server.world.store.realm.name).toBe('Imported Org');
    await mock.control.reset();
    expect(mock.server.world.store.realm.name).toBe(snapshot.realm.name);
  });

  it('refuses a malformed snapshot and an unknown fixture name', async () => {
    await expect(mock.control.state.import({ users: 'nope' } as never)).rejects.toThrow(ControlError);
    await expect(mock.control.reset('../../etc/passwd')).rejects.toMatchObject({ status: 400 });
    await expect(mock.control.reset('no-such-fixture')).rejects.toMatchObject({
      body: { msg: "No fixture named 'no-such-fixture'" },
    });
  });

  it('reads, sets, advances and freezes the clock', async () => {
    const set = await mock.control.clock.set(Date.UTC(2030, 0, 1));
    expect(set.iso.startsWith('2030-01-01T00:00')).toBe(true);
    const frozen = await mock.control.clock.freeze();
    expect(frozen.frozen).toBe(true);
    const advanced = await mock.control.clock.advance(3_600_000);
    expect(advanced.now_ms).toBe(frozen.now_ms + 3_600_000);
    expect((await mock.control.clock.get()).now_ms).toBe(advanced.now_ms);
    const real = await mock.control.clock.real();
    expect(Math.abs(real.now_ms - Date.now())).toBeLessThan(1000);
    expect(real.frozen).toBe(false);
  });
});

describe('sandboxes', () => {
  it('keep state apart, by header and by path prefix, and can be dropped', async () => {
    const name = 'worker-1';
    const other = 'worker-2';
    const inA = as('hamlet', mock.baseUrl, { 'X-Mock-Sandbox': name });
    const z = await zulipLogin(mock.sandbox(other).baseUrl, mock.user('hamlet'));
    await inA.post('/user_topics', { stream_id: 1, topic: 'only in A', visibility_policy: 1 });
    await mock
      .sandbox(name)
      .control.state.export()
      .then((s) => {
        expect(s.user_topics.some((t) => t.topic === 'only in A')).toBe(true);
      });
    const b = await mock.sandbox(other).control.state.export();
    expect(b.user_topics.some((t) => t.topic === 'only in A')).toBe(false);
    expect(mock.server.world.store.userTopics.all().some((t) => t.topic === 'only in A')).toBe(false);
    // A client that cannot set headers uses the /sandbox/NAME site.
    const me = await z.users.me.getProfile();
    expect(me.email).toBe('hamlet@zulip.com');
    expect(await mock.control.sandboxes.list()).toEqual(expect.arrayContaining(['default', name, other]));
    // Scenarios and clocks are per sandbox too.
    await mock.sandbox(name).control.scenarios.activate('rate-limited');
    expect((await inA.get('/users/me')).status).toBe(429);
    expect((await as('hamlet').get('/users/me')).status).toBe(200);
    await mock.sandbox(name).control.clock.advance(86_400_000);
    expect(Math.abs((await mock.control.clock.get()).now_ms - Date.now())).toBeLessThan(1000);
    await mock.control.sandboxes.drop(name);
    expect(await mock.control.sandboxes.list()).not.toContain(name);
    const fresh = await mock.sandbox(name).control.state.export();
    expect(fresh.user_topics.some((t) => t.topic === 'only in A')).toBe(false);
  });

  it('refuses an invalid sandbox name with an envelope', async () => {
    const res = await fetch(`${mock.baseUrl}/api/v1/users/me`, {
      headers: {
        'x-mock-sandbox': 'bad name!',
        authorization: basicAuth(mock.user('hamlet').email, mock.user('hamlet').api_key),
      },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('BAD_REQUEST');
  });
});

describe('the control token', () => {
  it('is required when configured', async () => {
    const guarded = await startMockServer({ controlToken: 's3cret' });
    try {
      const res = await fetch(`${guarded.baseUrl}/__mock/info`);
      expect(res.status).toBe(401);
      expect((await res.json()).code).toBe('UNAUTHORIZED');
      expect((await guarded.control.info()).sandbox).toBe('default');
    } finally {
      await guarded.close();
    }
  });

  it('is required when listening beyond loopback, and its absence closes the control API', async () => {
    const open = await startMockServer({ host: '0.0.0.0' });
    try {
      const port = new URL(open.baseUrl).port;
      const res = await fetch(`http://127.0.0.1:${port}/__mock/info`);
      expect(res.status).toBe(401);
      expect((await res.json()).msg).toContain('--control-token');
    } finally {
      await open.close();
    }
  });
});
