// Message windows on a large state (about 40 s): GET /messages, POST /messages/flags/narrow and a
// channel's topics on the generated 100,000-message state, every answer built anew, at 32
// connections, with the server's CPU time per request. The narrows are chosen so that the
// matches are sparse among all messages (a topic, one conversation, starred, a quiet channel,
// the first unread): what a walk over every message pays for and a walk among the narrow's
// candidates does not. A look between changes, not the report.
//   node --import tsx bench/windows.ts [SECONDS] [TOTAL] [-- mock args]
// WINDOWS_CLI=path/to/cli.js measures another build (e.g. an older commit's) on the same state;
// WINDOWS_ROWS=REGEX only the rows whose name matches (case-insensitive).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measure } from './lib/config.js';
import { HAMLET, ROOT, mockApi, requests, send, type Api, type Req } from './lib/mock.js';
import { spawnServer } from './lib/proc.js';
import { generateState } from './gen-state.js';
import type { State } from '../src/store/state.js';

const [seconds = '3', total = '100000', ...rest] = process.argv.slice(2);
const args = rest[0] === '--' ? rest.slice(1) : rest;
const duration = Number(seconds);
const cli = process.env.WINDOWS_CLI ?? path.join(ROOT, 'dist/src/cli.js');

const base = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/classic.json'), 'utf8')) as State;
const state = generateState(base, Number(total));
const dir = mkdtempSync(path.join(os.tmpdir(), 'teamchat-windows-'));
const fixture = path.join(dir, 'state.json');
writeFileSync(fixture, JSON.stringify(state));
const auth = requests.subscriptions(mockApi('')).headers;

const get = (api: Api, p: string, params: Record<string, unknown>): Req => ({
  url: api(
    `${p}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))}`,
  ),
  method: 'GET',
  headers: auth,
});
const channel = (name: string) => ({ operator: 'channel', operand: name });
const topic = { operator: 'topic', operand: 'topic 7' };
const OTHELLO = 5;
const rows: Array<[string, (api: Api) => Req]> = [
  [
    'GET /messages channel, 50 newest',
    (api) => get(api, '/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [channel('Denmark')] }),
  ],
  [
    'GET /messages topic, 50 newest',
    (api) =>
      get(api, '/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [channel('Denmark'), topic] }),
  ],
  [
    'GET /messages one DM conversation, 50',
    (api) =>
      get(api, '/messages', {
        anchor: 'newest',
        num_before: 50,
        num_after: 0,
        narrow: [{ operator: 'dm', operand: [OTHELLO] }],
      }),
  ],
  [
    'GET /messages is:starred (none), 50',
    (api) =>
      get(api, '/messages', {
        anchor: 'newest',
        num_before: 50,
        num_after: 0,
        narrow: [{ operator: 'is', operand: 'starred' }],
      }),
  ],
  [
    'GET /messages quiet private channel',
    (api) => get(api, '/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [channel('core team')] }),
  ],
  [
    'GET /messages first_unread, 25+25',
    (api) => get(api, '/messages', { anchor: 'first_unread', num_before: 25, num_after: 25, narrow: [] }),
  ],
  [
    'flags/narrow topic, 100 newest',
    (api) => ({
      url: api('/messages/flags/narrow'),
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        anchor: 'newest',
        num_before: '100',
        num_after: '0',
        narrow: JSON.stringify([channel('Denmark'), topic]),
        op: 'add',
        flag: 'starred',
      }).toString(),
    }),
  ],
  ['GET /users/me/{stream_id}/topics', (api) => get(api, '/users/me/1/topics', {})],
];

const mock = await spawnServer(
  'mock',
  process.execPath,
  [cli, '--port', '0', '--quiet', '--no-answer-cache', '--fixture', fixture, ...args],
  { cwd: ROOT, timeoutMs: 120_000 },
);
const api = mockApi(mock.url);
console.log(`${state.messages.length.toLocaleString('en-US')} messages, as ${HAMLET.email}, ${cli}`);
const only = process.env.WINDOWS_ROWS ? new RegExp(process.env.WINDOWS_ROWS, 'i') : null;
for (const [name, req] of rows) {
  if (only && !only.test(name)) continue;
  const first = await send(req(api));
  if (first.status !== 200) throw new Error(`${name} answered ${first.status}: ${first.text.slice(0, 200)}`);
  const r = await measure(req(api), 32, mock.proc.pid, duration);
  console.log(
    `${name.padEnd(38)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(2).padStart(6)}  p99 ${r.p99.toFixed(2).padStart(7)} ms  ${r.cpuUs?.toFixed(0).padStart(6)} µs/req`,
  );
}
await mock.stop();
