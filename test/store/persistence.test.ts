// --data persistence: changes survive a restart, the file is always whole JSON, a SIGKILL in the
// middle of a write storm loses nothing acknowledged in durable mode (and nothing older than the
// short append window otherwise), and corrupt files give errors that name the file.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MockServer } from '../../src/server.js';
import { logFileOf } from '../../src/store/persist.js';
import { basicAuth, formEncode } from '../helpers/server.js';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'teamchat-data-'));
const root = new URL('../..', import.meta.url).pathname;

async function muteTopic(base: string, email: string, key: string, topic: string): Promise<number> {
  const res = await fetch(`${base}/api/v1/user_topics`, {
    method: 'POST',
    body: formEncode({ stream_id: 1, topic, visibility_policy: 1 }),
    headers: { authorization: basicAuth(email, key), 'content-type': 'application/x-www-form-urlencoded' },
  });
  await res.text();
  return res.status;
}

describe('persistence in process', () => {
  it('starts from the saved data, and a reset still goes back to the fixture', async () => {
    const data = path.join(tmp(), 'state.json');
    const first = new MockServer({ data, log: () => {} });
    const base = await first.listen(0);
    const hamlet = first.world.store.users.by('email', 'hamlet@zulip.com')!;
    expect(await muteTopic(base, hamlet.email, hamlet.api_key, 'saved')).toBe(200);
    await first.close();

    const second = new MockServer({ data, log: () => {} });
    const saved = () => second.world.store.userTopics.all().some((t) => t.topic === 'saved');
    expect(saved()).toBe(true);
    second.world.reset();
    expect(saved()).toBe(false);
    expect(second.world.store.state).toEqual(second.fixture);
    await second.close();
  });

  it('keeps changes across a restart, in a snapshot plus an append log', async () => {
    const data = path.join(tmp(), 'state.json');
    const first = new MockServer({ data, log: () => {} });
    const base = await first.listen(0);
    const hamlet = first.world.store.users.by('email', 'hamlet@zulip.com')!;
    for (let i = 0; i < 5; i++) expect(await muteTopic(base, hamlet.email, hamlet.api_key, `kept ${i}`)).toBe(200);
    await first.persister!.flushed();
    expect(readFileSync(logFileOf(data), 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(5);
    JSON.parse(readFileSync(data, 'utf8'));
    await first.close();

    const second = new MockServer({ data, log: () => {} });
    const topics = second.world.store.userTopics
      .all()
      .filter((t) => t.user_id === hamlet.user_id)
      .map((t) => t.topic);
    expect(topics).toEqual(expect.arrayContaining(['kept 0', 'kept 1', 'kept 2', 'kept 3', 'kept 4']));
    await second.close();
  });

  it('replays the log over the snapshot after a crash, and ignores a torn last line', async () => {
    const data = path.join(tmp(), 'state.json');
    const first = new MockServer({ data, log: () => {} });
    const base = await first.listen(0);
    const hamlet = first.world.store.users.by('email', 'hamlet@zulip.com')!;
    await first.persister!.flushed();
    expect(await muteTopic(base, hamlet.email, hamlet.api_key, 'in the log only')).toBe(200);
    await first.persister!.flushed();
    // Simulate a crash: no close(), and a half-written line at the end of the log.
    writeFileSync(logFileOf(data), readFileSync(logFileOf(data), 'utf8') + '{"q":99999,"ch":{"t":"ins');
    const second = new MockServer({ data, log: () => {} });
    expect(second.world.store.userTopics.all().some((t) => t.topic === 'in the log only')).toBe(true);
    await second.close();
    await first.close();
  });

  it('names the file and the problem when a data file is corrupt', () => {
    const data = path.join(tmp(), 'state.json');
    writeFileSync(data, '{"realm": {}, "users": [');
    expect(() => new MockServer({ data })).toThrow(
      new RegExp(`${data.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON`),
    );
    writeFileSync(data, '{"realm": {}, "users": {}}');
    expect(() => new MockServer({ data })).toThrow(`${data}: $.realm.id is missing`);
    expect(() => new MockServer({ fixture: path.join(tmp(), 'missing.json') })).toThrow(
      /missing\.json: cannot be read \(ENOENT\)/,
    );
  });
});

function startCli(args: string[]): Promise<{ child: ChildProcess; base: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli.ts'), '--port', '0', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 15000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+) /.exec(out);
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

async function storm(
  base: string,
  email: string,
  key: string,
  prefix: string,
  killAfterMs: number,
  child: ChildProcess,
) {
  const acknowledged: Array<{ topic: string; at: number }> = [];
  let n = 0;
  let stop = false;
  const killAt = performance.now() + killAfterMs;
  const worker = async () => {
    while (!stop) {
      const topic = `${prefix} ${n++}`;
      try {
        if ((await muteTopic(base, email, key, topic)) === 200) acknowledged.push({ topic, at: performance.now() });
      } catch {
        return;
      }
    }
  };
  const workers = Array.from({ length: 8 }, worker);
  while (performance.now() < killAt) await new Promise((r) => setTimeout(r, 10));
  child.kill('SIGKILL');
  const killedAt = performance.now();
  stop = true;
  await Promise.all(workers);
  return { acknowledged, killedAt };
}

describe('a SIGKILL in the middle of a write storm', () => {
  for (const durable of [true, false]) {
    it(
      durable
        ? 'durable mode: every acknowledged write survives'
        : 'default mode: the file loads and holds every write older than the append window',
      async () => {
        const data = path.join(tmp(), 'state.json');
        const hamlet = { email: 'hamlet@zulip.com', key: 'waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f' };
        const { child, base } = await startCli(['--data', data, ...(durable ? ['--durable'] : [])]);
        const { acknowledged, killedAt } = await storm(base, hamlet.email, hamlet.key, 'storm', 1200, child);
        expect(acknowledged.length).toBeGreaterThan(50);
        expect(existsSync(data)).toBe(true);
        JSON.parse(readFileSync(data, 'utf8'));
        const again = new MockServer({ data, log: () => {} });
        const stored = new Set(again.world.store.userTopics.all().map((t) => t.topic));
        const required = durable ? acknowledged : acknowledged.filter((a) => a.at < killedAt - 250);
        const lost = required.filter((a) => !stored.has(a.topic));
        expect(lost).toEqual([]);
        await again.close();
      },
      30000,
    );
  }
});
