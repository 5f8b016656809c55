// A state reaches a world only whole and valid: imports, scenario state patches and data files
// are checked against the schema generated from the State type, on a copy, before anything
// changes; a refusal names the JSON path. Durable mode holds control-API changes until on disk.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { MockServer } from '../../src/server.js';

const root = new URL('../..', import.meta.url).pathname;
let t: TestServer;
let data: string;
beforeEach(async () => {
  data = path.join(mkdtempSync(path.join(tmpdir(), 'teamchat-valid-')), 'state.json');
  t = await startTestServer({ data });
});
afterEach(async () => {
  await t.close();
});

async function control(method: string, route: string, body?: unknown) {
  const res = await fetch(`${t.base}/__mock${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function fileText(): Promise<string> {
  await t.server.persister!.flushed();
  // The first snapshot of a new data file is written just after start.
  for (let i = 0; i < 200 && !existsSync(data); i++) await new Promise((r) => setTimeout(r, 10));
  return readFileSync(data, 'utf8');
}

describe('refused states change nothing', () => {
  const cases: Array<[string, (s: any) => unknown, string]> = [
    ['an empty realm', () => ({ realm: {} }), 'state: $.realm.id is missing'],
    [
      'settings: null',
      (s) => {
        s.users[0].settings = null;
        return s;
      },
      'state: $.users[0].settings must be object',
    ],
    [
      'users: 5',
      (s) => {
        s.users = 5;
        return s;
      },
      'state: $.users must be array',
    ],
    [
      'an unknown collection',
      (s) => {
        s.widgets = [];
        return s;
      },
      'state: $.widgets is not a field of the state',
    ],
    [
      'a duplicate email',
      (s) => {
        s.users[1].email = s.users[0].email;
        return s;
      },
      'repeats the email',
    ],
    [
      'two email invitations with one ID',
      (s) => {
        const invite = (key: string) => ({
          id: 1,
          key,
          is_multiuse: false,
          email: `${key}@example.com`,
          invited_by_user_id: s.users[0].user_id,
          invited: 1_700_000_000,
          expiry_date: null,
          invited_as: 400,
          stream_ids: [],
          group_ids: [],
          include_realm_default_subscriptions: false,
          notify_referrer_on_join: true,
          status: 'active',
        });
        s.invites = [invite('a'), invite('b'), { ...invite('c'), is_multiuse: true, email: null }];
        return s;
      },
      'repeats the is_multiuse+id of an earlier row (false:1)',
    ],
  ];
  for (const [what, make, msg] of cases) {
    it(`PUT /__mock/state refuses ${what}`, async () => {
      const before = (await control('GET', '/state')).body.state;
      const fileBefore = await fileText();
      const r = await control('PUT', '/state', { state: make(structuredClone(before)) });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('BAD_REQUEST');
      expect(r.body.msg).toContain(msg);
      expect((await control('GET', '/state')).body.state).toEqual(before);
      expect(await fileText()).toBe(fileBefore);
      expect((await t.anonymous().get('/server_settings')).status).toBe(200);
    });
  }

  it('a scenario state patch of the wrong type is refused before it touches the state', async () => {
    const before = (await control('GET', '/state')).body.state;
    const fileBefore = await fileText();
    const r = await control('POST', '/scenarios', { definition: { name: 'poison', state: { users: 5 }, rules: [] } });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe("scenario 'poison': $.users must be array");
    expect((await control('GET', '/state')).body.state).toEqual(before);
    expect((await control('GET', '/scenarios')).body.active).toEqual([]);
    expect(await fileText()).toBe(fileBefore);
    // The data file still loads.
    await t.close();
    t = await startTestServer({ data });
    expect(t.server.world.store.users.size).toBe(before.users.length);
  });

  it('a valid scenario patch applies and is persisted', async () => {
    const r = await control('POST', '/scenarios', {
      definition: { name: 'renamed', state: { realm: { name: 'Patched' } }, rules: [] },
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(await fileText()).realm.name).toBe('Patched');
  });
});

describe('import takes back what export gives', () => {
  it('after 3,000 sends (beyond the 1 MB body limit of other calls)', async () => {
    const hamlet = t.as('hamlet');
    for (let i = 0; i < 3000; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          hamlet.post('/messages', {
            type: 'stream',
            to: 'Denmark',
            topic: 'bulk',
            content: `message number ${i + j} with some words to make it longer than a few bytes`,
          }),
        ),
      );
    }
    const exported = (await control('GET', '/state')).body.state;
    expect(JSON.stringify({ state: exported }).length).toBeGreaterThan(1024 * 1024);
    await control('POST', '/reset');
    const r = await control('PUT', '/state', { state: exported });
    expect(r.status).toBe(200);
    expect((await control('GET', '/state')).body.state).toEqual(exported);
  }, 120_000);
});

describe('a data file that does not fit is refused at start', () => {
  it('names the file and the path', async () => {
    await control('PUT', '/state', { state: { ...(await control('GET', '/state')).body.state } });
    await t.close();
    const { writeFileSync } = await import('node:fs');
    const state = JSON.parse(readFileSync(data, 'utf8'));
    state.realm.name = 5;
    writeFileSync(data, JSON.stringify(state));
    expect(() => new MockServer({ data, log: () => {} })).toThrow(`${data}: $.realm.name must be string`);
    t = await startTestServer();
  });
});

function startCli(args: string[]): Promise<{ child: ChildProcess; base: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'src/cli.ts'), '--port', '0', '--quiet', ...args],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 30000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1] });
      }
    });
    child.stderr!.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
}

describe('--durable: control-API changes are on disk when answered', () => {
  it('survive a SIGKILL right after the answer (import, scenario patch, reset)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'teamchat-durable-')), 'state.json');
    const steps: Array<[string, string, unknown, (s: any) => boolean]> = [
      ['PUT', '/state', null, (s) => s.realm.name === 'Imported'],
      [
        'POST',
        '/scenarios',
        { definition: { name: 'p', state: { realm: { name: 'Patched' } }, rules: [] } },
        (s) => s.realm.name === 'Patched',
      ],
      ['POST', '/reset', {}, (s) => s.realm.name !== 'Patched'],
    ];
    for (const [method, route, body, holds] of steps) {
      const { child, base } = await startCli(['--data', file, '--durable']);
      let payload = body;
      if (payload === null) {
        const state = ((await (await fetch(`${base}/__mock/state`)).json()) as any).state;
        payload = { state: { ...state, realm: { ...state.realm, name: 'Imported' } } };
      }
      const r = await fetch(`${base}/__mock${route}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      expect(r.status).toBe(200);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const again = new MockServer({ data: file, log: () => {} });
      try {
        expect(holds(again.world.store.state)).toBe(true);
      } finally {
        await again.close();
      }
    }
  }, 120_000);
});
