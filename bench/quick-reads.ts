// Reads built anew (--no-answer-cache) beside Express lean answering the same bytes, in one run:
// GET /users/me/subscriptions, GET /messages and GET /messages/matches_narrow (100 ids) after 100
// sends, as npm run bench measures them. Each round measures Express lean, then the mock, for each
// read, so that a busy machine weighs on both alike; compare the server CPU µs per request (steadier
// than req/s on a shared machine) within a round. A look between changes, not the report (npm run
// bench has the same rows).
//   node --import tsx bench/quick-reads.ts [SECONDS] [-- mock args]
// QUICK_READS=messages,narrow picks reads (subscriptions, messages, narrow); QUICK_ROUNDS=N rounds (1).
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measure } from './lib/config.js';
import { bareApi, mockApi, requests, send, startMock, ROOT, type Api, type Req } from './lib/mock.js';
import { spawnServer, type Child } from './lib/proc.js';

const [seconds = '3', ...rest] = process.argv.slice(2);
const args = rest[0] === '--' ? rest.slice(1) : rest;
const duration = Number(seconds);
const rounds = Number(process.env.QUICK_ROUNDS ?? 1);
const line = (name: string, r: Awaited<ReturnType<typeof measure>>) =>
  console.log(
    `${name.padEnd(58)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(6)}  p99 ${r.p99.toFixed(2).padStart(6)} ms  ${r.cpuUs?.toFixed(0).padStart(5)} µs/req ${Object.keys(r.bad).length ? JSON.stringify(r.bad) : ''}`,
  );

const mock = await startMock('mock', ['--no-answer-cache', ...args]);
const leans: Child[] = [];
try {
  const api = mockApi(mock.url);
  let lastId = 0;
  for (let i = 0; i < 100; i++) lastId = (await send(requests.sendMessage(api))).json?.id ?? lastId;
  const ids = Array.from({ length: 100 }, (_, i) => lastId - 99 + i).filter((id) => id > 0);
  const all: Array<[string, string, (api: Api) => Req]> = [
    ['subscriptions', 'GET /users/me/subscriptions', requests.subscriptions],
    ['messages', 'GET /messages (50 newest of a channel)', requests.messages],
    ['narrow', `GET /messages/matches_narrow (${ids.length} ids)`, (a) => requests.matchesNarrow(a, ids)],
  ];
  const picked = (process.env.QUICK_READS ?? 'subscriptions,messages,narrow').split(',');
  const reads = all.filter(([key]) => picked.includes(key));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamchat-quick-reads-'));
  const rows: Array<{ name: string; body: string; make: (api: Api) => Req; lean: Child }> = [];
  for (const [key, name, make] of reads) {
    const r = await send(make(api));
    if (r.status !== 200) throw new Error(`${name} answered ${r.status}: ${r.text.slice(0, 200)}`);
    const file = path.join(dir, `${key}.json`);
    writeFileSync(file, r.text);
    const lean = await spawnServer(
      'lean',
      process.execPath,
      [path.join(ROOT, 'bench/servers/express-lean.mjs'), file],
      {
        cwd: ROOT,
      },
    );
    leans.push(lean);
    rows.push({ name, body: r.text, make, lean });
  }
  for (let round = 1; round <= rounds; round++) {
    if (rounds > 1) console.log(`round ${round}`);
    for (const { name, body, make, lean } of rows) {
      line(
        `Express lean, same bytes (${(body.length / 1024).toFixed(1)} KiB)`,
        await measure(make(bareApi(lean.url)), 32, lean.proc.pid, duration),
      );
      line(`mock built anew: ${name}`, await measure(make(api), 32, mock.proc.pid, duration));
    }
  }
} finally {
  for (const lean of leans) await lean.stop();
  await mock.stop();
}
