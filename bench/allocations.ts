// Bytes allocated per request, by the function that allocated them: the mock runs in this
// process (from src/, answer cache off) under 32 connections while the inspector's heap sampler
// records every allocation, those already collected included. Unlike CPU time on a shared
// machine, the figure barely moves between runs, so it shows what a change saves. The load
// generator runs here too: its own allocations (autocannon, http-parser-js, Buffer toString of
// the answers) are in the figures, the same before and after a change of the mock.
//   node --import tsx bench/allocations.ts [REQUEST] [SECONDS]
// ALLOC_SURVIVORS=1 counts only what outlived a minor collection (promoted to the old generation,
// where only the slower major collections free it): what makes a request's garbage expensive.
// REQUEST is one of bench/lib/mock.ts's requests taking only the API (messages, subscriptions,
// sendMessage, ...); messages and subscriptions are read after 100 sends, as in quick-reads.ts.
// mentionOutgoingBot calls a bot server of this process's, as quick.ts's row; sendNotifyingDm3 is
// sendNotifyingDm once Iago has an FCM and an APNs device too (quick.ts's E2EE+FCM+APNs row);
// matchesNarrow asks about the 100 messages sent first, as quick-reads.ts's narrow row.
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { MockServer } from '../src/server.js';
import { load } from './lib/load.js';
import { mockApi, requests, send, ROOT, type Api, type Req } from './lib/mock.js';
import { startBotListener } from './lib/bot-listener.js';

interface SampleNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampleNode[];
}

const [op = 'messages', seconds = '3'] = process.argv.slice(2);
const make =
  op === 'matchesNarrow'
    ? null
    : (requests as unknown as Record<string, (api: Api) => Req>)[op === 'sendNotifyingDm3' ? 'sendNotifyingDm' : op];
if (op !== 'matchesNarrow' && (!make || make.length !== 1))
  throw new Error(`no request ${op} taking only the API in bench/lib/mock.ts`);

const server = new MockServer({ log: () => {}, answerCache: false, fixture: path.join(ROOT, 'fixtures/classic.json') });
const api = mockApi(await server.listen(0));
let lastId = 0;
for (let i = 0; i < 100; i++) lastId = (await send(requests.sendMessage(api))).json.id as number;
const bot = op === 'mentionOutgoingBot' ? await startBotListener() : null;
if (bot) await send(requests.createOutgoingBot(api, bot.url));
if (op === 'sendNotifyingDm3')
  for (const token of [requests.iagoFcmToken(api), requests.iagoApnsToken(api)]) await send(token);
const req = make
  ? make(api)
  : requests.matchesNarrow(
      api,
      Array.from({ length: 100 }, (_, i) => lastId - 99 + i),
    );
await load({ ...req, connections: 32, duration: 1 });

const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 1024,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: !process.env.ALLOC_SURVIVORS,
});
const callsBefore = bot?.calls() ?? 0;
const r = await load({ ...req, connections: 32, duration: Number(seconds) });
const calls = (bot?.calls() ?? 0) - callsBefore;
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SampleNode } };
session.disconnect();
await bot?.close();
await server.close();

const where = (n: SampleNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|src|bench)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
const bySite = new Map<string, number>();
/** A built-in's allocations (push, entries, Map, ...) are named with their caller, which is what can change. */
const walk = (n: SampleNode, caller: string) => {
  const site = n.callFrame.url ? where(n) : `${where(n)} <- ${caller}`;
  if (n.selfSize) bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
  for (const c of n.children) walk(c, n.callFrame.url ? where(n) : caller);
};
walk(profile.head, '(root)');
const perRequest = (bytes: number) => (bytes / r.ok).toFixed(0).padStart(8);
const total = [...bySite.values()].reduce((a, b) => a + b, 0);
console.log(
  `${op}: ${r.ok} requests, ${perRequest(total).trim()} bytes allocated per request${bot ? ` (the bot called ${calls} times)` : ''}`,
);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`${perRequest(bytes)} B  ${site}`);
process.exit(0);
