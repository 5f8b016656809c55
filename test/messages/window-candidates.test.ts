// Through HTTP, where looking among a narrow's candidates (the user's, the channel's or the
// topic's messages) instead of every message could answer differently: after direct messages,
// moves between channels and topics, deletions and stars of history, GET /messages and
// POST /messages/flags/narrow answer the window the walk over every message finds
// (plain-window.ts); a channel's topics, mark_topic_as_read and the move notices follow moved
// messages; and the window of a channel is found among its messages when thousands of direct
// messages came after them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { streamId } from '../helpers/fixture-rows.js';
import { sendMessage, sendToChannel } from '../helpers/messages.js';
import { ControlClient } from '../../src/control/client.js';
import { plainWindow, type WindowAsk } from './plain-window.js';
import { canSeeMessage } from '../../src/domain/messages/access.js';
import { hasContentAccess } from '../../src/domain/channels/access.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ answerCache: false });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await new ControlClient(t.base).reset();
});

const move = (id: number, params: Record<string, unknown>) =>
  t.as('iago').patch(`/messages/${id}`, { send_notification_to_old_thread: false, ...params });

/** GET /messages against the plain walk over the live state, for one user and ask. */
async function expectPlainWindow(who: string, ask: WindowAsk): Promise<void> {
  const r = await t.as(who).get('/messages', {
    anchor: ask.anchor,
    num_before: ask.numBefore,
    num_after: ask.numAfter,
    include_anchor: ask.includeAnchor,
    narrow: ask.narrow,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const plain = plainWindow(t.server.world.store, t.user(who), ask);
  const shown = {
    ids: r.body.messages.map((m: { id: number }) => m.id),
    anchor: r.body.anchor,
    foundAnchor: r.body.found_anchor,
    foundOldest: r.body.found_oldest,
    foundNewest: r.body.found_newest,
  };
  expect(shown, `${who} ${JSON.stringify(ask)}`).toEqual(plain);
}

/** GET /users/me/{stream_id}/topics against a walk over every message of the live state. */
async function expectPlainTopics(who: string, streamId: number): Promise<void> {
  const r = await t.as(who).get(`/users/me/${streamId}/topics`);
  const store = t.server.world.store;
  if (!hasContentAccess(store, t.user(who), store.streams.get(streamId)!)) {
    expect(r.body.msg).toBe('Invalid channel ID');
    return;
  }
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const latest = new Map<string, { max_id: number; name: string }>();
  for (const m of store.messages.all())
    if (m.type === 'stream' && m.stream_id === streamId && canSeeMessage(store, t.user(who), m))
      latest.set(m.topic.toLowerCase(), { max_id: m.id, name: m.topic });
  const plain = [...latest.values()].sort((a, b) => b.max_id - a.max_id);
  expect(r.body.topics, `${who} ${streamId}`).toEqual(plain);
}

describe('windows among a narrow’s candidates, through HTTP', () => {
  it('answer as the walk over every message after DMs, moves, deletions and stars of history', async () => {
    const scotland = streamId(t, 'Scotland');
    const denmark = streamId(t, 'Denmark');
    const othello = t.user('othello').user_id;
    const hamlet = t.user('hamlet').user_id;
    const early = await sendToChannel(t, 'hamlet', 'Scotland', 'coast', 'early');
    for (let i = 0; i < 5; i++) await sendMessage(t, 'iago', { type: 'private', to: [othello], content: `dm ${i}` });
    const mid = await sendToChannel(t, 'othello', 'Denmark', 'Coast', 'mid');
    await sendMessage(t, 'othello', { type: 'private', to: [hamlet], content: 'to hamlet' });
    const late = await sendToChannel(t, 'hamlet', 'Scotland', 'coast', 'late');
    const gone = await sendToChannel(t, 'hamlet', 'Scotland', 'coast', 'deleted');
    // The oldest message of the topic goes to Denmark: it must sit there before the newer ones.
    expect((await move(early, { stream_id: denmark, topic: 'coast', propagate_mode: 'change_one' })).status).toBe(200);
    expect((await move(late, { topic: 'shore', propagate_mode: 'change_one' })).status).toBe(200);
    expect((await t.as('iago').delete(`/messages/${gone}`)).status).toBe(200);
    // Prospero is not subscribed to Scotland: starring its history gives him a row of his own.
    expect(
      (await t.as('prospero').post('/messages/flags', { messages: [late], op: 'add', flag: 'starred' })).status,
    ).toBe(200);

    // The newest public message is one Prospero never received: only the history shows it to him.
    await sendToChannel(t, 'hamlet', 'Scotland', 'quiet', 'unseen by prospero');

    const narrows: unknown[][] = [
      [{ operator: 'channels', operand: 'public' }],
      [],
      [{ operator: 'channel', operand: 'Denmark' }],
      [
        { operator: 'channel', operand: denmark },
        { operator: 'topic', operand: 'COAST' },
      ],
      [{ operator: 'channel', operand: 'Scotland' }],
      [
        { operator: 'channel', operand: scotland },
        { operator: 'topic', operand: 'shore' },
      ],
      [{ operator: 'dm', operand: [othello] }],
      [{ operator: 'dm', operand: 'othello@zulip.com' }],
      [{ operator: 'is', operand: 'dm' }],
      [{ operator: 'is', operand: 'unread' }],
      [{ operator: 'is', operand: 'starred' }],
      [
        { operator: 'channels', operand: 'public' },
        { operator: 'topic', operand: 'coast' },
      ],
      [{ operator: 'id', operand: String(mid) }],
    ];
    const anchors = ['newest', 'oldest', 'first_unread', String(mid), String(gone), '0', '99999999999999999999'];
    for (const who of ['hamlet', 'othello', 'prospero', 'polonius']) {
      for (const s of [denmark, scotland]) await expectPlainTopics(who, s);
      for (const narrow of narrows)
        for (const anchor of anchors) {
          await expectPlainWindow(who, { anchor, narrow, numBefore: 3, numAfter: 3, includeAnchor: true });
          await expectPlainWindow(who, { anchor, narrow, numBefore: 0, numAfter: 2, includeAnchor: false });
        }
    }
  });

  it('flags/narrow marks the channel’s newest messages when thousands of DMs came after them', async () => {
    const store = t.server.world.store;
    const hamlet = t.user('hamlet').user_id;
    const othello = t.user('othello').user_id;
    const inDenmark: number[] = [];
    for (let i = 0; i < 3; i++) inDenmark.push(await sendToChannel(t, 'othello', 'Denmark', 'news', `n${i}`));
    // Direct messages stored as a long run would have sent them (fast: no HTTP per message).
    const base = store.messages.get(inDenmark[2])!;
    for (let i = 1; i <= 3000; i++)
      store.messages.insert({
        ...base,
        id: base.id + i,
        type: 'private',
        stream_id: null,
        topic: '',
        recipient_ids: [hamlet, othello].sort((a, b) => a - b),
        flags: { [hamlet]: [], [othello]: ['read'] },
        reactions: [],
      });
    const r = await t.as('hamlet').post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 2,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'Denmark' }],
      op: 'add',
      flag: 'read',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      processed_count: 2,
      updated_count: 2,
      first_processed_id: inDenmark[1],
      last_processed_id: inDenmark[2],
      found_oldest: false,
      found_newest: true,
    });
    await expectPlainWindow('hamlet', {
      anchor: 'first_unread',
      narrow: [{ operator: 'channel', operand: 'Denmark' }],
      numBefore: 5,
      numAfter: 5,
      includeAnchor: true,
    });
  });

  it('topics, mark_topic_as_read and the move notices follow moved messages', async () => {
    const denmark = streamId(t, 'Denmark');
    const scotland = streamId(t, 'Scotland');
    const first = await sendToChannel(t, 'iago', 'Scotland', 'travel', 'first');
    const second = await sendToChannel(t, 'iago', 'Scotland', 'travel', 'second');
    const newer = await sendToChannel(t, 'iago', 'Denmark', 'home', 'newer');
    const moved = await move(first, {
      stream_id: denmark,
      topic: 'Travel',
      propagate_mode: 'change_all',
      send_notification_to_new_thread: true,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);

    const topics = await t.as('hamlet').get(`/users/me/${denmark}/topics`);
    const travel = topics.body.topics.find((x: { name: string }) => x.name === 'Travel');
    // The notice the move left in the new topic is its newest message.
    const notice = t.server.world.store.messages.all().at(-1)!;
    expect(notice).toMatchObject({ stream_id: denmark, topic: 'Travel' });
    expect(notice.content).toContain('This topic was moved here from');
    expect(travel).toEqual({ name: 'Travel', max_id: notice.id });
    expect(topics.body.topics.map((x: { max_id: number }) => x.max_id)).toContain(newer);
    const left = await t.as('hamlet').get(`/users/me/${scotland}/topics`);
    expect(left.body.topics.map((x: { name: string }) => x.name)).not.toContain('travel');

    // A private channel with protected history: Othello sees only the messages he received (while
    // subscribed), and each topic is named and dated by the newest of those.
    const core = streamId(t, 'core team');
    const subscribeOthello = async () => {
      const r = await t
        .as('iago')
        .post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: ['othello@zulip.com'] });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    await sendToChannel(t, 'iago', 'core team', 'secret', 'before othello');
    await subscribeOthello();
    await sendToChannel(t, 'iago', 'core team', 'Plans', 'received');
    const lastReceived = await sendToChannel(t, 'iago', 'core team', 'plans', 'received too');
    expect((await t.as('othello').delete('/users/me/subscriptions', { subscriptions: ['core team'] })).status).toBe(
      200,
    );
    await sendToChannel(t, 'iago', 'core team', 'plans', 'while he was out');
    await subscribeOthello();
    const coreTopics = await t.as('othello').get(`/users/me/${core}/topics`);
    expect(coreTopics.status, JSON.stringify(coreTopics.body)).toBe(200);
    expect(coreTopics.body.topics).toEqual([{ name: 'plans', max_id: lastReceived }]);
    await expectPlainTopics('othello', core);
    await expectPlainTopics('hamlet', core);

    // Hamlet received both moved messages unread: marking the topic reads them where they are now.
    const marked = await t.as('hamlet').post('/mark_topic_as_read', { stream_id: denmark, topic_name: 'travel' });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    const hamlet = String(t.user('hamlet').user_id);
    for (const id of [first, second]) expect(t.server.world.store.messages.get(id)!.flags[hamlet]).toContain('read');
    const gone = await t.as('hamlet').post('/mark_topic_as_read', { stream_id: scotland, topic_name: 'travel' });
    expect(gone.status).toBe(400);
    expect(gone.body.msg).toBe("No such topic 'travel'");
  });
});
