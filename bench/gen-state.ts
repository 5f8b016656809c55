// Generates a large state: fixtures/classic.json extended with messages up to `total`, spread over
// the public channels (to their subscribers, with per-user flags as the server stores them) and
// direct messages between the human users. Deterministic (seeded), so runs compare.
// As a script: node --import tsx bench/gen-state.ts OUT.json [TOTAL]
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Message, State } from '../src/store/state.js';

const WORDS = (
  'the king castle letter ship storm garden north river night morning tower bridge market harbour ' +
  'winter summer council soldier ghost crown sword poison play actor ring island forest wall gate road'
).split(' ');

/** The word that a share of the generated messages contain: the bench's `search` operand. */
export const SEARCH_WORD = 'lighthouse';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function generateState(base: State, total: number, seed = 42): State {
  const state = structuredClone(base);
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const humans = state.users.filter((u) => u.is_active && !u.is_bot).map((u) => u.user_id);
  const channels = state.streams.filter((s) => !s.invite_only && !s.is_archived).map((s) => s.stream_id);
  const subscribers = new Map<number, number[]>();
  for (const sub of state.subscriptions) {
    if ((sub as { active?: boolean }).active === false) continue;
    subscribers.set(sub.stream_id, [...(subscribers.get(sub.stream_id) ?? []), sub.user_id]);
  }
  let id = Math.max(0, ...state.messages.map((m) => m.id));
  let timestamp = Math.max(0, ...state.messages.map((m) => m.timestamp)) - total * 30;
  while (state.messages.length < total) {
    id++;
    timestamp += 1 + Math.floor(random() * 60);
    const words = Array.from({ length: 6 + Math.floor(random() * 20) }, () => pick(WORDS));
    if (random() < 0.1) words.splice(Math.floor(random() * words.length), 0, SEARCH_WORD);
    const content = words.join(' ');
    const direct = random() < 0.1;
    let message: Message;
    if (direct) {
      const a = pick(humans);
      let b = pick(humans);
      if (b === a) b = humans[(humans.indexOf(a) + 1) % humans.length];
      const ids = [a, b].sort((x, y) => x - y);
      message = {
        id,
        sender_id: a,
        type: 'private',
        stream_id: null,
        topic: '',
        recipient_ids: ids,
        content,
        rendered_content: `<p>${escape(content)}</p>`,
        timestamp,
        client: 'website',
        flags: Object.fromEntries(ids.map((u) => [String(u), u === a || random() < 0.9 ? ['read'] : []])),
        reactions: [],
        last_edit_timestamp: null,
      };
    } else {
      const stream = pick(channels);
      const members = subscribers.get(stream) ?? [];
      const sender = members.length ? pick(members) : pick(humans);
      message = {
        id,
        sender_id: sender,
        type: 'stream',
        stream_id: stream,
        topic: `topic ${Math.floor(random() * 50)}`,
        recipient_ids: [],
        content,
        rendered_content: `<p>${escape(content)}</p>`,
        timestamp,
        client: 'website',
        flags: Object.fromEntries(members.map((u) => [String(u), u === sender || random() < 0.9 ? ['read'] : []])),
        reactions: [],
        last_edit_timestamp: null,
      };
    }
    state.messages.push(message);
  }
  return state;
}

/** IDs of the newest `count` messages that `userId` received (has flags for). */
export function receivedIds(state: State, userId: number, count: number): number[] {
  const key = String(userId);
  const out: number[] = [];
  for (let i = state.messages.length - 1; i >= 0 && out.length < count; i--) {
    if (key in state.messages[i].flags) out.push(state.messages[i].id);
  }
  return out.reverse();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [out, total = '100000'] = process.argv.slice(2);
  if (!out) {
    console.error('usage: gen-state.ts OUT.json [TOTAL]');
    process.exit(2);
  }
  const base = JSON.parse(readFileSync(new URL('../fixtures/classic.json', import.meta.url), 'utf8')) as State;
  writeFileSync(out, JSON.stringify(generateState(base, Number(total))));
  console.log(`wrote ${out}`);
}
