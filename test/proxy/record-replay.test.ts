// Record and replay: a second teamchat-mock plays the real server; the command line proxies to it
// with --record, a short session is driven through it, the upstream is stopped, and a mock started
// with --scenario <the recording> and no proxy gives the same answers. No secret is on disk.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type StartedMock } from '../../src/index.js';
import { startCli, runCliToEnd, type RunningCli } from '../helpers/cli.js';
import { RECORDING_FORMAT, recordingScenario } from '../../src/control/scenarios/recorder.js';
import { basicAuth } from '../helpers/server.js';

let upstream: StartedMock;
let dir: string;
let apiKey: string;
let auth: string;
/** The first test's recording and answers, which the record-to-fixture test starts from. */
let recorded: { file: string; live: Array<{ status: number; body: any }> } | null = null;
const running: RunningCli[] = [];

beforeAll(async () => {
  upstream = await startMockServer();
  const h = upstream.user('hamlet');
  apiKey = h.api_key;
  auth = basicAuth(h.email, h.api_key);
  dir = mkdtempSync(path.join(os.tmpdir(), 'record-'));
});
afterAll(async () => {
  for (const cli of running) await cli.stop();
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Step {
  method: string;
  path: string;
  form?: Record<string, string>;
  auth?: boolean;
}
const NARROW = JSON.stringify([
  { operator: 'channel', operand: 'Denmark' },
  { operator: 'topic', operand: 'recorded' },
]);
const SESSION: Step[] = [
  { method: 'POST', path: '/dev_fetch_api_key', form: { username: 'hamlet@zulip.com' }, auth: false },
  { method: 'GET', path: '/users/me' },
  { method: 'GET', path: '/users/me/subscriptions' },
  { method: 'GET', path: `/messages?anchor=newest&num_before=5&num_after=0&narrow=${encodeURIComponent(NARROW)}` },
  {
    method: 'POST',
    path: '/messages',
    form: { type: 'stream', to: 'Denmark', topic: 'recorded', content: 'recorded through the proxy' },
  },
  { method: 'GET', path: `/messages?anchor=newest&num_before=5&num_after=0&narrow=${encodeURIComponent(NARROW)}` },
  { method: 'GET', path: '/users/me' },
];

/** Runs the session against `base`: each answer's status and parsed body. */
async function drive(base: string): Promise<Array<{ status: number; body: any }>> {
  const out = [];
  for (const step of SESSION) {
    const headers: Record<string, string> = step.auth === false ? {} : { authorization: auth };
    const init: RequestInit = { method: step.method, headers };
    if (step.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      init.body = new URLSearchParams(step.form);
    }
    const res = await fetch(`${base}/api/v1${step.path}`, init);
    out.push({ status: res.status, body: await res.json() });
  }
  return out;
}

describe('--record with --proxy, replayed with --scenario', () => {
  it('replays a recorded session offline to the same answers, with no secret in the file', async () => {
    const recording = await startCli(['--quiet', '--proxy', upstream.baseUrl, '--record', dir]);
    running.push(recording);
    const live = await drive(recording.base);
    await recording.stop();
    expect(live.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    // The second read of the topic sees the message sent in between: two answers, in order.
    expect(live[3].body.messages).toEqual([]);
    expect(live[5].body.messages.map((m: any) => m.content)).toEqual(['<p>recorded through the proxy</p>']);

    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^recording-\d{8}-\d{6}\.jsonl$/);
    const file = path.join(dir, files[0]);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(apiKey);
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text).not.toContain(auth.slice('Basic '.length));
    // One line a file header, then one per exchange, appended as they came.
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].format).toBe(RECORDING_FORMAT);
    expect(lines.slice(1).map((l) => l.request.operation)).toEqual([
      'dev-fetch-api-key',
      'get-own-user',
      'get-subscriptions',
      'get-messages',
      'send-message',
      'get-messages',
      'get-own-user',
    ]);
    const scenario = recordingScenario(text, 'recording') as { rules: any[] };
    expect(scenario.rules.map((r: any) => [r.operation, r.user ?? null, r.times ?? null])).toEqual([
      ['get-messages', 'hamlet@zulip.com', 1],
      ['get-messages', 'hamlet@zulip.com', null],
      ['send-message', 'hamlet@zulip.com', null],
      ['dev-fetch-api-key', null, null],
      ['get-subscriptions', 'hamlet@zulip.com', null],
      // (max_message_id moved with the send: the second read is a second answer)
      ['get-own-user', 'hamlet@zulip.com', 1],
      ['get-own-user', 'hamlet@zulip.com', null],
    ]);
    expect(scenario.rules[3].respond).toEqual({ status: 200, body: { ...live[0].body, api_key: '<redacted>' } });

    await upstream.close();
    const replay = await startCli(['--quiet', '--scenario', file]);
    running.push(replay);
    const replayed = await drive(replay.base);
    expect(replayed).toEqual(
      live.map((a, i) => (i === 0 ? { status: 200, body: { ...a.body, api_key: '<redacted>' } } : a)),
    );
    await replay.stop();
    recorded = { file, live };
  });

  it('record-to-fixture: the recording becomes a fixture whose users, channels, subscriptions and messages the mock serves', async () => {
    const { file, live } = recorded!;
    const out = path.join(dir, 'fixture.json');
    const made = await runCliToEnd(['record-to-fixture', file, '--out', out]);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const subs = live[2].body.subscriptions;
    expect(made.stdout).toBe(
      `wrote ${out}: 1 users, ${subs.length} channels, ${subs.length} subscriptions, 1 messages from ${file}\n`,
    );
    const mock = await startCli(['--quiet', '--fixture', out]);
    running.push(mock);
    // (reads only: the session's send would add a second message)
    const read = async (step: Step) => {
      const res = await fetch(`${mock.base}/api/v1${step.path}`, { headers: { authorization: auth } });
      return { status: res.status, body: (await res.json()) as any };
    };
    const [me, subscriptions, messages] = [await read(SESSION[6]), await read(SESSION[2]), await read(SESSION[5])];
    expect(me).toEqual({ status: 200, body: live[6].body });
    expect(subscriptions.body.subscriptions.map((s: any) => [s.stream_id, s.name, s.color])).toEqual(
      subs.map((s: any) => [s.stream_id, s.name, s.color]),
    );
    expect(messages.body.messages.map((m: any) => [m.id, m.sender_id, m.subject, m.content])).toEqual(
      live[5].body.messages.map((m: any) => [m.id, m.sender_id, m.subject, m.content]),
    );
    await mock.stop();
  });

  it('refuses --record without --proxy', async () => {
    const { code, stderr } = await runCliToEnd(['--record', dir]);
    expect(code).toBe(1);
    expect(stderr).toBe('teamchat-mock: --record needs --proxy\n');
  });
});
