// How POST /register's cost grows with the stored messages: the mock in this process (answer
// cache off) on the classic fixture extended to TOTAL messages (bench/gen-state.ts), Hamlet
// registering for the message sections (unread, starred, recent conversations, max_message_id)
// COUNT times, one at a time. Two states: "shared", as generated (Hamlet is in most channels, so
// he received most messages), and "others", the same messages with Hamlet's flags taken off (a
// long run of a test suite in which other users did the talking): there the cost should stay
// that of Hamlet's own messages.
//   node --import tsx bench/register-growth.ts [TOTAL] [COUNT]
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { MockServer } from '../src/server.js';
import type { State } from '../src/store/state.js';
import { generateState } from './gen-state.js';
import { HAMLET, ROOT, formAs } from './lib/mock.js';

const [total = '50000', count = '200'] = process.argv.slice(2);
const base = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/classic.json'), 'utf8')) as State;
const BODY =
  'event_types=' +
  encodeURIComponent('["message","update_message_flags","starred_messages","recent_private_conversations"]');
const FETCH =
  'fetch_event_types=' +
  encodeURIComponent('["message","update_message_flags","starred_messages","recent_private_conversations"]');

async function timeRegister(label: string, state: State): Promise<void> {
  const server = new MockServer({ log: () => {}, answerCache: false, fixtureState: state });
  const url = `${await server.listen(0)}/api/v1/register`;
  const once = async () => {
    const res = await fetch(url, { method: 'POST', headers: formAs(HAMLET), body: `${BODY}&${FETCH}` });
    if (res.status !== 200) throw new Error(`register answered ${res.status}: ${await res.text()}`);
    return res.text();
  };
  for (let i = 0; i < 20; i++) await once();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < Number(count); i++) {
    const start = process.hrtime.bigint();
    bytes = (await once()).length;
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  await server.close();
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  const own = state.messages.filter((m) => String(HAMLET.userId) in m.flags).length;
  console.log(
    `${label}: ${state.messages.length} messages, Hamlet's ${own}; register mean ${mean.toFixed(2)} ms, ` +
      `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms (${bytes} bytes)`,
  );
}

const shared = generateState(base, Number(total));
await timeRegister('shared', shared);
const others = structuredClone(shared);
const baseIds = new Set(base.messages.map((m) => m.id));
for (const m of others.messages) if (!baseIds.has(m.id)) delete m.flags[String(HAMLET.userId)];
await timeRegister('others', others);
