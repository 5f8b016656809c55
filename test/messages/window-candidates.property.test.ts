// A narrow's window is looked for among its candidates (the user's, the channel's or the topic's
// messages, kept in ID order by the store's indexes) rather than among every message. Over random
// states (channel and direct messages with random flags, moves between channels and topics,
// deletions one by one and in bulk, flag changes, muted topics and channels, indexes first read
// before or after the changes) and random narrows and anchors, the window is the one the plain walk
// over every message finds (plain-window.ts), and the channel and topic indexes list exactly
// their messages in ID order.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { narrowWindow } from '../../src/domain/messages/fetch.js';
import {
  channelMessages,
  channelTopics,
  conversationMessages,
  sentMessages,
  subscriptionKey,
  topicMessagesInOrder,
  userTopicKey,
} from '../../src/store/store.js';
import type { Message, State } from '../../src/store/state.js';
import { plainWindow, type WindowAsk } from './plain-window.js';
import { fuzzRuns, fuzzSeed } from '../fuzz/settings.js';

let t: TestServer;
let initial: State;
beforeAll(async () => {
  t = await startTestServer({ answerCache: false });
  const store = t.server.world.store;
  initial = structuredClone(store.state);
  USERS = store.users.filter((u) => !u.is_bot).map((u) => u.user_id);
  STREAMS = store.streams.all().map((s) => s.stream_id);
});
afterAll(async () => {
  await t.close();
});

/** The fixture's people (bots aside: a guest among them) and channels (a private one with protected history among them). */
let USERS: number[] = [];
let STREAMS: number[] = [];
const TOPICS = ['a', 'A', 'b', '✔ a', '', 'test'];
const FLAGS = ['read', 'starred', 'mentioned', 'has_alert_word'];

function arbitraries() {
  const user = fc.constantFrom(...USERS);
  const stream = fc.constantFrom(...STREAMS);
  const topic = fc.constantFrom(...TOPICS);
  /** A message picked by its place among those stored (modulo their number). */
  const pick = fc.nat(10_000);

  const op = fc.oneof(
    fc.record({
      kind: fc.constant('channel' as const),
      sender: user,
      stream,
      topic,
      flags: fc.dictionary(fc.constantFrom(...USERS.map(String)), fc.subarray(FLAGS)),
    }),
    fc.record({
      kind: fc.constant('dm' as const),
      sender: user,
      to: fc.uniqueArray(user, { minLength: 1, maxLength: 3 }),
      read: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('move' as const),
      which: pick,
      stream: fc.option(stream, { nil: undefined }),
      topic: fc.option(topic, { nil: undefined }),
      wholeTopic: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('delete' as const), which: pick, wholeTopic: fc.boolean() }),
    fc.record({ kind: fc.constant('flag' as const), which: pick, user, flag: fc.constantFrom('read', 'starred') }),
    fc.record({ kind: fc.constant('mute' as const), user, stream, topic, policy: fc.constantFrom(0, 1, 2, 3) }),
    fc.record({ kind: fc.constant('muteChannel' as const), user, stream }),
    fc.record({ kind: fc.constant('readIndex' as const), stream }),
  );
  const term = fc.oneof(
    fc.record({
      operator: fc.constantFrom('channel', 'stream'),
      operand: fc.oneof(stream, fc.constantFrom('denmark', 'Verona', 'core team')),
    }),
    fc.record({ operator: fc.constant('topic'), operand: fc.constantFrom(...TOPICS, 'general chat') }),
    fc.record({
      operator: fc.constantFrom('dm', 'pm-with'),
      operand: fc.uniqueArray(user, { minLength: 1, maxLength: 2 }),
    }),
    fc.record({ operator: fc.constantFrom('dm-including', 'group-pm-with', 'sender'), operand: user }),
    // Several of them, each with its own candidate list or none: drawn three times as often.
    {
      weight: 3,
      arbitrary: fc.record({
        operator: fc.constant('is'),
        operand: fc.constantFrom(
          'dm',
          'private',
          'unread',
          'starred',
          'mentioned',
          'alerted',
          'resolved',
          'followed',
          'muted',
        ),
      }),
    },
    fc.record({ operator: fc.constant('in'), operand: fc.constantFrom('home', 'all') }),
    fc.record({ operator: fc.constant('channels'), operand: fc.constant('public') }),
    fc.record({ operator: fc.constant('id'), operand: fc.nat(120).map(String) }),
    fc.record({ operator: fc.constant('has'), operand: fc.constant('reaction') }),
  );
  const narrow = fc.array(
    fc.tuple(term, fc.boolean(), fc.nat(4)).map(([tm, negated, n]) => ({ ...tm, negated: negated && n === 0 })),
    { maxLength: 3 },
  );
  const ask = fc.record({
    who: user,
    anchor: fc.oneof(
      fc.constantFrom('oldest', 'newest', 'first_unread', '10000000000000000000'),
      fc.nat(130).map(String),
    ),
    narrow,
    numBefore: fc.nat(6),
    numAfter: fc.nat(6),
    includeAnchor: fc.boolean(),
  });
  return { op, ask };
}

type Op = ReturnType<typeof arbitraries>['op'] extends fc.Arbitrary<infer T> ? T : never;

function apply(o: Op): void {
  const store = t.server.world.store;
  const rows = store.messages.all();
  const nth = (i: number) => rows[i % rows.length];
  const nextId = () => rows[rows.length - 1].id + 1;
  const base = { content: 'x', rendered_content: '<p>x</p>', timestamp: 1_800_000_000, client: 'test' };
  const row = { reactions: [], last_edit_timestamp: null, ...base };
  switch (o.kind) {
    case 'channel':
      store.messages.insert({
        id: nextId(),
        sender_id: o.sender,
        type: 'stream',
        stream_id: o.stream,
        topic: o.topic,
        recipient_ids: [],
        flags: o.flags,
        ...row,
      });
      return;
    case 'dm': {
      const ids = [...new Set([o.sender, ...o.to])].sort((a, b) => a - b);
      const flags = Object.fromEntries(ids.map((id) => [String(id), id === o.sender || o.read ? ['read'] : []]));
      store.messages.insert({
        id: nextId(),
        sender_id: o.sender,
        type: 'private',
        stream_id: null,
        topic: '',
        recipient_ids: ids,
        flags,
        ...row,
      });
      return;
    }
    case 'move': {
      const m = nth(o.which);
      if (m.type !== 'stream') return;
      const lower = m.topic.toLowerCase();
      const moved = o.wholeTopic
        ? rows.filter((x) => x.type === 'stream' && x.stream_id === m.stream_id && x.topic.toLowerCase() === lower)
        : [m];
      // Only the fields that change, as a patch may name them (the indexes must notice either).
      const patch = {
        ...(o.stream === undefined ? {} : { stream_id: o.stream }),
        ...(o.topic === undefined ? {} : { topic: o.topic }),
        last_moved_timestamp: 1,
      };
      for (const x of moved) store.messages.update(x, patch);
      return;
    }
    case 'delete': {
      const m = nth(o.which);
      if (!o.wholeTopic || m.type !== 'stream') return store.messages.remove(m);
      const lower = m.topic.toLowerCase();
      store.messages.removeWhere(
        (x) => x.type === 'stream' && x.stream_id === m.stream_id && x.topic.toLowerCase() === lower,
      );
      return;
    }
    case 'flag': {
      const m = nth(o.which);
      const key = String(o.user);
      const own = m.flags[key] ?? ['read', 'historical'];
      const after = own.includes(o.flag) ? own.filter((f) => f !== o.flag) : [...own, o.flag];
      store.messages.update(m, { flags: { ...m.flags, [key]: after } });
      return;
    }
    case 'mute': {
      const existing = store.userTopics.get(userTopicKey(o.user, o.stream, o.topic));
      if (existing && o.policy === 0) store.userTopics.remove(existing);
      else if (existing) store.userTopics.update(existing, { visibility_policy: o.policy });
      else if (o.policy !== 0)
        store.userTopics.insert({
          user_id: o.user,
          stream_id: o.stream,
          topic: o.topic,
          visibility_policy: o.policy,
          last_updated: 1,
        });
      return;
    }
    case 'muteChannel': {
      const sub = store.subscriptions.get(subscriptionKey(o.user, o.stream));
      if (sub) store.subscriptions.update(sub, { is_muted: !sub.is_muted });
      return;
    }
    case 'readIndex':
      channelMessages(store, o.stream);
  }
}

function expectIndexesHold(): void {
  const store = t.server.world.store;
  const ids = (ms: readonly Message[]) => ms.map((m) => m.id);
  const conversations = new Set(
    store.messages.filter((m) => m.type === 'private').map((m) => m.recipient_ids.join(',')),
  );
  for (const key of conversations)
    expect(ids(conversationMessages(store, key))).toEqual(
      ids(store.messages.filter((m) => m.type === 'private' && m.recipient_ids.join(',') === key)),
    );
  for (const u of USERS)
    expect(ids(sentMessages(store, u))).toEqual(ids(store.messages.filter((m) => m.sender_id === u)));
  for (const s of STREAMS) {
    expect(ids(channelMessages(store, s))).toEqual(ids(store.messages.filter((m) => m.stream_id === s)));
    const topics = channelTopics(store, s).map((ms) => ids(ms));
    const walked = new Map<string, number[]>();
    for (const m of store.messages.filter((x) => x.type === 'stream' && x.stream_id === s))
      walked.set(m.topic.toLowerCase(), [...(walked.get(m.topic.toLowerCase()) ?? []), m.id]);
    expect(topics.sort((a, b) => a[0] - b[0])).toEqual([...walked.values()].sort((a, b) => a[0] - b[0]));
    for (const name of TOPICS)
      expect(ids(topicMessagesInOrder(store, s, name))).toEqual(
        ids(
          store.messages.filter(
            (m) => m.type === 'stream' && m.stream_id === s && m.topic.toLowerCase() === name.toLowerCase(),
          ),
        ),
      );
  }
}

type Outcome = { error: string } | ReturnType<typeof plainWindow>;
const attempt = (f: () => Outcome): Outcome => {
  try {
    return f();
  } catch (e) {
    return { error: (e as Error).message };
  }
};

describe('a narrow’s window among its candidates', () => {
  it('is the window the walk over every message finds, through random changes', () => {
    const { op, ask } = arbitraries();
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.array(ask, { minLength: 1, maxLength: 12 }), (ops, asks) => {
        const store = t.server.world.store;
        store.load(structuredClone(initial));
        for (const o of ops) apply(o);
        expectIndexesHold();
        for (const a of asks) {
          const who = store.users.get(a.who)!;
          const request: WindowAsk = a;
          const indexed = attempt(() => {
            const { messages, ...found } = narrowWindow(store, who, request);
            return { ids: messages.map((m) => m.id), ...found };
          });
          const plain = attempt(() => plainWindow(store, who, request));
          expect(indexed, JSON.stringify(a)).toEqual(plain);
        }
      }),
      { numRuns: fuzzRuns(400), seed: fuzzSeed() },
    );
  });
});
