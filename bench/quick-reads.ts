// Reads built anew (--no-answer-cache) beside Express lean answering the same bytes, in one run
// (about 30 s): GET /users/me/subscriptions and GET /messages after 100 sends. Compare the server
// CPU µs per request (steadier than req/s on a shared machine). A look between changes, not the
// report (npm run bench has the same rows).
//   node --import tsx bench/quick-reads.ts [SECONDS] [-- mock args]
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measure } from './lib/config.js';
import { bareApi, mockApi, requests, send, startMock, ROOT, type Req } from './lib/mock.js';
import { spawnServer } from './lib/proc.js';

const [seconds = '3', ...rest] = process.argv.slice(2);
const args = rest[0] === '--' ? rest.slice(1) : rest;
const duration = Number(seconds);
const line = (name: string, r: Awaited<ReturnType<typeof measure>>) =>
  console.log(
    `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(6)}  p99 ${r.p99.toFixed(2).padStart(6)} ms  ${r.cpuUs?.toFixed(0).padStart(5)} µs/req ${Object.keys(r.bad).length ? JSON.stringify(r.bad) : ''}`,
  );

const mock = await startMock('mock', ['--no-answer-cache', ...args]);
const api = mockApi(mock.url);
for (let i = 0; i < 100; i++) await send(requests.sendMessage(api));
const reads: Array<[string, (api: ReturnType<typeof mockApi>) => Req]> = [
  ['GET /users/me/subscriptions', requests.subscriptions],
  ['GET /messages (50 newest of a channel)', requests.messages],
];
const dir = mkdtempSync(path.join(os.tmpdir(), 'teamchat-quick-reads-'));
const bodies = new Map<string, string>();
for (const [name, req] of reads) {
  const r = await send(req(api));
  if (r.status !== 200) throw new Error(`${name} answered ${r.status}: ${r.text.slice(0, 200)}`);
  bodies.set(name, r.text);
}
for (const [name, req] of reads) {
  const file = path.join(dir, `${reads.findIndex((r) => r[0] === name)}.json`);
  writeFileSync(file, bodies.get(name)!);
  const lean = await spawnServer('lean', process.execPath, [path.join(ROOT, 'bench/servers/express-lean.mjs'), file], {
    cwd: ROOT,
  });
  line(
    `Express lean, same bytes (${(bodies.get(name)!.length / 1024).toFixed(1)} KiB)`,
    await measure(req(bareApi(lean.url)), 32, lean.proc.pid, duration),
  );
  await lean.stop();
  line(`mock built anew: ${name}`, await measure(req(api), 32, mock.proc.pid, duration));
}
await mock.stop();
