// IDs are never handed out twice, even across a SIGKILL in the default (non-durable) mode: each
// counter reserves a block of IDs in `<data>.ids` before using it (src/store/persist.ts), so the
// rows lost in the append window do not give their IDs to other rows after the restart.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MockServer } from '../../src/server.js';
import { idsFileOf } from '../../src/store/persist.js';
import { Store } from '../../src/store/store.js';
import { defaultFixturePath, readStateFile } from '../../src/store/fixture.js';
import { basicAuth, formEncode } from '../helpers/server.js';
import { startCli } from '../helpers/cli.js';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'teamchat-ids-'));
const hamlet = { email: 'hamlet@zulip.com', key: 'waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f' };

async function sendMessage(base: string, content: string): Promise<number> {
  const res = await fetch(`${base}/api/v1/messages`, {
    method: 'POST',
    body: formEncode({ type: 'stream', to: 'Denmark', topic: 'ids', content }),
    headers: {
      authorization: basicAuth(hamlet.email, hamlet.key),
      'content-type': 'application/x-www-form-urlencoded',
    },
  });
  const body = (await res.json()) as { id: number };
  if (res.status !== 200) throw new Error(`send answered ${res.status}`);
  return body.id;
}

/** The ID the next message gets, from a server started on the data file. */
async function nextMessageId(data: string): Promise<number> {
  const server = new MockServer({ data, log: () => {} });
  const base = await server.listen(0);
  try {
    return await sendMessage(base, 'after the restart');
  } finally {
    await server.close();
  }
}

describe('reserved ID high-water mark', () => {
  it('a message sent after a SIGKILL gets an ID above every acknowledged one', async () => {
    // A few runs: the kill lands right after an answer, inside the append window.
    for (let run = 0; run < 3; run++) {
      const data = path.join(tmp(), 'state.json');
      const cli = await startCli(['--data', data, '--quiet'], { timeoutMs: 60_000 });
      const exited = new Promise((resolve) => cli.child.once('exit', resolve));
      const acknowledged: number[] = [];
      const target = 20 + run * 15;
      let stop = false;
      const worker = async () => {
        for (let i = 0; !stop; i++) {
          let id: number;
          try {
            id = await sendMessage(cli.base, `run ${run} message ${i}`);
          } catch {
            return;
          }
          if (stop) return;
          acknowledged.push(id);
          if (acknowledged.length >= target) {
            stop = true;
            cli.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
      await exited;
      expect(cli.child.signalCode).toBe('SIGKILL');
      expect(await nextMessageId(data)).toBeGreaterThan(Math.max(...acknowledged));
    }
  }, 120_000);

  it('a clean stop leaves no gap, and a deleted newest message does not give its ID away', async () => {
    const data = path.join(tmp(), 'state.json');
    const server = new MockServer({ data, log: () => {} });
    const base = await server.listen(0);
    const first = await sendMessage(base, 'one');
    const second = await sendMessage(base, 'two');
    expect(second).toBe(first + 1);
    server.world.store.messages.remove(server.world.store.messages.get(second)!);
    await server.close();
    expect(JSON.parse(readFileSync(idsFileOf(data), 'utf8'))).toEqual({ messages: second + 1 });
    expect(await nextMessageId(data)).toBe(second + 1);
  });

  it('a reset starts the IDs again from the fixture', async () => {
    const data = path.join(tmp(), 'state.json');
    const server = new MockServer({ data, log: () => {} });
    const base = await server.listen(0);
    const first = await sendMessage(base, 'before the reset');
    for (let i = 0; i < 150; i++) server.world.store.nextId('messages');
    server.world.reset();
    expect(await sendMessage(base, 'after the reset')).toBe(first);
    await server.close();
  });

  it('a counter used fast reserves larger blocks (at most 6400 IDs), one used slowly blocks of 100', () => {
    const store = new Store(readStateFile(defaultFixturePath()));
    let now = 0;
    const limits: number[] = [];
    store.reserveIds(
      {},
      (_name, limit) => limits.push(limit),
      () => now,
    );
    const first = store.nextId('messages');
    const sizes = () => limits.map((limit, i) => limit - (i ? limits[i - 1] : first));
    // Fast: each block used up within the second of its reservation.
    while (limits.length < 9) store.nextId('messages');
    expect(sizes()).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 6400, 6400]);
    // Every ID handed out stays below the limit reserved before it.
    expect(store.peekId('messages')).toBeLessThanOrEqual(limits[limits.length - 1]);
    // Slow: a second or more between reservations goes back to 100.
    limits.length = 0;
    const start = store.peekId('messages');
    while (store.peekId('messages') < start + 25_000) {
      now += 1_500;
      store.nextId('messages');
    }
    expect(limits.length).toBeGreaterThan(150);
    expect(limits.slice(1).every((limit, i) => limit - limits[i] === 100)).toBe(true);
  });

  it('names the file and the problem when the ids file is corrupt', () => {
    const data = path.join(tmp(), 'state.json');
    writeFileSync(idsFileOf(data), '{"messages": ');
    expect(() => new MockServer({ data })).toThrow(`${idsFileOf(data)}: not valid JSON`);
    writeFileSync(idsFileOf(data), '{"messages": -3}');
    expect(() => new MockServer({ data })).toThrow(`${idsFileOf(data)}: /messages: must be a non-negative integer`);
    writeFileSync(idsFileOf(data), '{"widgets": 3}');
    expect(() => new MockServer({ data })).toThrow(`${idsFileOf(data)}: /widgets: not an ID counter`);
  });
});
