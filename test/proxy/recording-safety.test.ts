// The recorder in a folder others may write to, with answers of any size: it appends, never
// rewrites; it never writes through a planted link or into a planted file; record-to-fixture takes
// users the base fixture lacks.
import {
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RECORDED_EXCHANGE_BYTES, Recorder, recordingScenario } from '../../src/control/scenarios/recorder.js';
import { recordingToFixture } from '../../src/record/to-fixture.js';
import { defaultFixturePath, readStateFile } from '../../src/store/fixture.js';
import type { Answer, Call } from '../../src/pipeline/call.js';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const NOW = new Date('2026-11-26T10:00:00Z');
const STAMP = '20261126-100000';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'recording-safety-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const call = (operation: string, params: Record<string, unknown> = {}) =>
  ({ op: { id: operation }, params, req: { headers: {} } }) as unknown as Call;
const answer = (body: Record<string, unknown>, status = 200) =>
  ({
    status,
    body,
    relay: {
      json: true,
      headers: { 'content-type': 'application/json' },
      bytes: Buffer.alloc(0),
      problems: [],
      level: 372,
    },
  }) as unknown as Answer;

describe('--record writes safely', () => {
  it('appends one line per exchange and skips (and notes) an answer over the bound, then goes on', () => {
    const rec = new Recorder(dir, NOW);
    rec.add(call('get-own-user'), answer({ result: 'success', msg: '', user_id: 10 }));
    const sizeAfterOne = statSync(rec.file).size;
    rec.add(
      call('get-messages', { anchor: 'newest' }),
      answer({ result: 'success', msg: '', messages: ['x'.repeat(MAX_RECORDED_EXCHANGE_BYTES)] }),
    );
    rec.add(call('get-own-user'), answer({ result: 'success', msg: '', user_id: 10, again: true }));
    const text = readFileSync(rec.file, 'utf8');
    // Far smaller than the skipped answer: it was never written, only noted.
    expect(text.length).toBeLessThan(sizeAfterOne + 1000);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[2]).toEqual({ skipped: { operation: 'get-messages', status: 200, bytes: expect.any(Number) } });
    const rules = recordingScenario(text, 'x').rules!;
    expect(rules.map((r) => [r.operation, r.times ?? null])).toEqual([
      ['get-own-user', 1],
      ['get-own-user', null],
    ]);
  });

  it('stops at its bound with one line saying so, and replays what came before', () => {
    const rec = new Recorder(dir, NOW, 2000);
    for (let i = 0; i < 100; i++) rec.add(call('get-own-user'), answer({ result: 'success', msg: '', user_id: i }));
    const text = readFileSync(rec.file, 'utf8');
    expect(text.length).toBeLessThanOrEqual(2100);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({ stopped: { bytes: expect.any(Number) } });
    expect(lines.filter((l) => l.stopped)).toHaveLength(1);
    const rules = recordingScenario(text, 'x').rules!;
    expect(rules.length).toBe(lines.length - 2);
    expect(rules.at(-1)?.respond).toEqual({
      status: 200,
      body: { result: 'success', msg: '', user_id: lines.length - 3 },
    });
  });

  it('never writes through a symbolic link or into a file planted under its name', () => {
    const outside = path.join(dir, 'outside.txt');
    writeFileSync(outside, 'precious');
    const folder = path.join(dir, 'shared');
    mkdirSync(folder, { mode: 0o777 });
    symlinkSync(outside, path.join(folder, `recording-${STAMP}.jsonl`));
    writeFileSync(path.join(folder, `recording-${STAMP}-1.jsonl`), 'planted', { mode: 0o666 });
    const rec = new Recorder(folder, NOW);
    rec.add(call('get-own-user'), answer({ result: 'success', msg: '' }));
    expect(readFileSync(outside, 'utf8')).toBe('precious');
    expect(readFileSync(path.join(folder, `recording-${STAMP}-1.jsonl`), 'utf8')).toBe('planted');
    expect(path.basename(rec.file)).toBe(`recording-${STAMP}-2.jsonl`);
    expect(lstatSync(rec.file).mode & 0o777).toBe(0o600);
  });

  it('refuses a folder another user owns', () => {
    if (!isRoot) return; // Making another user's folder needs root.
    const foreign = path.join(dir, 'foreign');
    mkdirSync(foreign, { mode: 0o777 });
    chownSync(foreign, 65534, 65534);
    expect(() => new Recorder(foreign, NOW)).toThrow(/belongs to another user/);
    expect(readdirSync(foreign)).toEqual([]);
  });
});

describe('record-to-fixture', () => {
  it('takes a user the base fixture lacks, with a made-up password and API key', () => {
    const recording = {
      name: 'r',
      rules: [
        {
          operation: 'get-own-user',
          user: 'newcomer@zulip.com',
          respond: {
            status: 200,
            body: {
              result: 'success',
              msg: '',
              user_id: 9001,
              email: 'newcomer@zulip.com',
              delivery_email: 'newcomer@zulip.com',
              full_name: 'New Comer',
              role: 400,
              is_active: true,
              is_bot: false,
              date_joined: '2026-01-01T00:00:00+00:00',
              timezone: '',
              avatar_version: 1,
            },
          },
        },
      ],
    };
    const { state, counts } = recordingToFixture(recording as any, readStateFile(defaultFixturePath()), 'r.jsonl');
    expect(counts.users).toBe(1);
    const user = state.users.find((u) => u.user_id === 9001)!;
    expect(user.full_name).toBe('New Comer');
    expect(typeof user.password).toBe('string');
    expect(user.password.length).toBeGreaterThan(8);
    expect(user.api_key).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});
