// Profiles the compiled mock under load on one operation and prints where the time goes:
//   node --import tsx bench/profile.ts subscriptions|messages|send|narrow|flags|register|events|notify|webhook|invite|invite-link|org:<label start>|<request of bench/lib/mock.ts> [SECONDS] [-- mock args]
// (org:POST /users/me/avatar profiles that row of bench/sections/organization-ops.ts)
// (messages and subscriptions after 100 sends, as bench/quick-reads.ts measures them; invite and
// invite-link on a --production mock, as the bench's invitation rows)
// PROFILE_CONNS=N loads it with N connections instead of 32 (the webhook row calls its bot after
// every message only when the calls keep up: 4 connections).
// The .cpuprofile is left in the printed folder (open it in Chrome DevTools for the full picture).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load } from './lib/load.js';
import { mockApi, requests, send, type Req } from './lib/mock.js';
import { spawnServer } from './lib/proc.js';
import { startBotListener } from './lib/bot-listener.js';
import { ROOT } from './lib/mock.js';
import { requestsOf } from './sections/organization-ops.js';

const [op = 'subscriptions', seconds = '5', ...rest] = process.argv.slice(2);
const given = rest[0] === '--' ? rest.slice(1) : rest;
// The invitation rows run on a --production mock, as bench/sections/invitation-ops.ts's: the
// development server's daily limit refuses all but the first 100 invitations (a profile of 400s).
const args =
  (op === 'invite' || op === 'invite-link') && !given.includes('--production') ? ['--production', ...given] : given;
const dir = mkdtempSync(path.join(os.tmpdir(), 'teamchat-profile-'));
const child = await spawnServer(
  'mock',
  process.execPath,
  [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
    // PROFILE_SOURCE=1: the TypeScript sources through tsx (names and lines as written, not the bundle's).
    ...(process.env.PROFILE_SOURCE
      ? ['--import', 'tsx', path.join(ROOT, 'src/cli.ts')]
      : [path.join(ROOT, 'dist/src/cli.js')]),
    '--port',
    '0',
    '--quiet',
    // The rows name the classic fixture's IDs, as bench/lib/mock.ts's startMock gives them.
    ...(args.includes('--fixture') ? [] : ['--fixture', path.join(ROOT, 'fixtures/classic.json')]),
    ...args,
  ],
  { cwd: ROOT, timeoutMs: 120_000 },
);
const api = mockApi(child.url);
let req: Req;
/** What the row started besides the mock (the webhook row's bot server), stopped after the load. */
let stopExtra = async () => {};
if (op === 'narrow') {
  // As in the bench: the 100 newest messages Hamlet received, all matching the search.
  let last = 0;
  for (let i = 0; i < 100; i++) last = (await send(requests.sendMessage(api))).json.id as number;
  req = requests.matchesNarrow(
    api,
    Array.from({ length: 100 }, (_, i) => last - 99 + i).filter((x) => x > 0),
  );
} else if (op === 'messages' || op === 'subscriptions') {
  for (let i = 0; i < 100; i++) await send(requests.sendMessage(api));
  req = requests[op](api);
} else if (op === 'flags') {
  // As in bench/quick.ts, where the register row leaves Hamlet thousands of message-only queues.
  for (let i = 0; i < 100; i++) await Promise.all(Array.from({ length: 100 }, () => send(requests.register(api))));
  req = requests.flagsNarrow(api);
} else if (op === 'notify') {
  // As quick.ts's last notifying row: a DM to Iago, away, with an E2EE, an FCM and an APNs device.
  for (const token of [requests.iagoFcmToken(api), requests.iagoApnsToken(api)]) await send(token);
  req = requests.sendNotifyingDm(api);
} else if (op === 'webhook') {
  // As quick.ts's webhook row: a channel message mentioning an outgoing webhook bot whose server
  // (in this process) answers response_not_required.
  const bot = await startBotListener();
  stopExtra = bot.close;
  await send(requests.createOutgoingBot(api, bot.url));
  req = requests.mentionOutgoingBot(api);
} else if (op.startsWith('org:')) {
  const row = requestsOf(api, child.url, null).find(([label]) => label.startsWith(op.slice(4)));
  if (!row) throw new Error(`no organization row starts with ${op.slice(4)}`);
  req = row[1];
} else if (op === 'events') {
  req = requests.events(api, (await send(requests.register(api))).json.queue_id);
} else {
  // A short name, or any request of bench/lib/mock.ts that takes only the API (uploadFile, ...).
  const short: Record<string, typeof requests.subscriptions> = {
    subscriptions: requests.subscriptions,
    send: requests.sendMessage,
    register: requests.register,
    invite: requests.sendInvite,
    'invite-link': requests.createInviteLink,
  };
  const make = short[op] ?? (requests as unknown as Record<string, typeof requests.subscriptions>)[op];
  if (!make || make.length !== 1) throw new Error(`no request ${op} taking only the API in bench/lib/mock.ts`);
  req = make(api);
}
const r = await load({ ...req, connections: Number(process.env.PROFILE_CONNS ?? 32), duration: Number(seconds) });
console.log(`${op}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`, r.bad);
await stopExtra();
child.proc.kill('SIGINT');
await new Promise((res) => child.proc.once('exit', res));

const file = path.join(
  dir,
  readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!,
);
type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
const self = new Map<string, number>();
const total = new Map<string, number>();
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  const k = name(byId.get(id)!);
  self.set(k, (self.get(k) ?? 0) + dt);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const key = name(byId.get(cur)!);
    if (!seen.has(key)) {
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + dt);
    }
  }
});
const top = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${(v / 1000).toFixed(0).padStart(7)} ms  ${k}`)
    .join('\n');
console.log(`profile: ${file}\n--- self time\n${top(self, 30)}\n--- total time\n${top(total, 45)}`);
