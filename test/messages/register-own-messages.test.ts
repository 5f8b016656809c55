// POST /register's message sections (unread_msgs, starred_messages, recent_private_conversations,
// max_message_id) read only the user's own messages, from the store's index of the messages each
// user has flags for. Through every kind of change of flags (sends, stars of history, reads,
// moves, deletions one by one and by topic) they answer byte for byte what a server loading the
// same state anew answers, and the indexes list exactly the messages with flags for the user (and
// those unread, and starred), in ID order, as a walk over every message finds them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { stream } from '../helpers/fixture-rows.js';
import { sendMessage, sendToChannel } from '../helpers/messages.js';
import { receivedMessages, starredMessages, unreadMessages } from '../../src/store/store.js';

let t: TestServer;
let twin: TestServer;
beforeAll(async () => {
  t = await startTestServer({ answerCache: false });
  twin = await startTestServer({ answerCache: false });
});
afterAll(async () => {
  await t.close();
  await twin.close();
});

const USERS = ['hamlet', 'othello', 'iago', 'cordelia', 'prospero', 'desdemona'];
const SECTIONS = ['unread_msgs', 'starred_messages', 'recent_private_conversations', 'max_message_id'] as const;

async function sections(server: TestServer, who: string): Promise<Record<string, unknown>> {
  const r = await server.as(who).post('/register', {
    fetch_event_types: ['message', 'update_message_flags', 'starred_messages', 'recent_private_conversations'],
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return Object.fromEntries(SECTIONS.map((k) => [k, r.body[k]]));
}

/** The index against a walk over every message, and each user's sections against a fresh load. */
async function expectSameAsFresh(): Promise<void> {
  const store = t.server.world.store;
  for (const who of USERS) {
    const id = t.user(who).user_id;
    const walked = (pred: (flags: string[]) => boolean) =>
      store.messages.filter((m) => String(id) in m.flags && pred(m.flags[String(id)])).map((m) => m.id);
    expect(
      receivedMessages(store, id).map((m) => m.id),
      who,
    ).toEqual(walked(() => true));
    expect(
      unreadMessages(store, id).map((m) => m.id),
      who,
    ).toEqual(walked((f) => !f.includes('read')));
    expect(
      starredMessages(store, id).map((m) => m.id),
      who,
    ).toEqual(walked((f) => f.includes('starred')));
  }
  twin.server.world.store.load(structuredClone(store.state));
  for (const who of USERS) {
    expect(JSON.stringify(await sections(t, who)), who).toBe(JSON.stringify(await sections(twin, who)));
  }
}

const flag = (who: string, messages: number[], op: 'add' | 'remove', name: string) =>
  t.as(who).post('/messages/flags', { messages, op, flag: name });

describe('register reads only the user’s own messages', () => {
  it('answers as a fresh load through sends, stars of history, reads, moves and deletions', async () => {
    const othello = t.user('othello').user_id;
    const hamlet = t.user('hamlet').user_id;
    const cordelia = t.user('cordelia').user_id;
    const dm = await sendMessage(t, 'iago', { type: 'private', to: [othello], content: 'to othello' });
    const group = await sendMessage(t, 'iago', { type: 'private', to: [othello, hamlet, cordelia], content: 'all' });
    const inScotland = await sendToChannel(t, 'othello', 'Scotland', 'moved', 'to be moved to Denmark');
    const mention = await sendToChannel(t, 'iago', 'Denmark', 'news', 'hi @**Othello, the Moor of Venice**');
    const later = await sendToChannel(t, 'iago', 'Denmark', 'news', 'later');
    await expectSameAsFresh();

    // Othello stars a message he received, then one of Rome's history (he is not subscribed):
    // the historical row is added to an old message, which his list must hold in ID order.
    expect((await flag('othello', [later], 'add', 'starred')).status).toBe(200);
    expect((await flag('othello', [17], 'add', 'starred')).status).toBe(200);
    const own = await sections(t, 'othello');
    expect(own.starred_messages).toEqual([17, later]);
    expect(own.unread_msgs).toMatchObject({
      pms: [{ other_user_id: t.user('iago').user_id, sender_id: t.user('iago').user_id, unread_message_ids: [dm] }],
      huddles: [
        {
          user_ids_string: [t.user('iago').user_id, hamlet, othello, cordelia].sort((a, b) => a - b).join(','),
          unread_message_ids: [group],
        },
      ],
      mentions: [8, mention],
    });
    expect(
      (own.recent_private_conversations as Array<{ max_message_id: number }>).map((c) => c.max_message_id),
    ).toEqual([group, dm, 25]);
    expect(own.max_message_id).toBe(later);
    await expectSameAsFresh();

    // Reading, unstarring, and a move into a channel with other subscribers (Prospero gets a row
    // in an older message than his newest; Othello keeps his, as a subscriber of both).
    expect((await flag('othello', [dm, mention], 'add', 'read')).status).toBe(200);
    expect((await flag('othello', [later], 'remove', 'starred')).status).toBe(200);
    const move = await t.as('iago').patch(`/messages/${inScotland}`, { stream_id: stream(t, 'Denmark').stream_id });
    expect(move.status, JSON.stringify(move.body)).toBe(200);
    expect(receivedMessages(t.server.world.store, t.user('prospero').user_id).map((m) => m.id)).toContain(inScotland);
    await expectSameAsFresh();

    // A move into Rome takes the message from Othello (not subscribed there).
    const toRome = await t.as('iago').patch(`/messages/${later}`, { stream_id: stream(t, 'Rome').stream_id });
    expect(toRome.status, JSON.stringify(toRome.body)).toBe(200);
    expect(receivedMessages(t.server.world.store, othello).map((m) => m.id)).not.toContain(later);
    await expectSameAsFresh();

    // Deleting one message, then a whole topic (a removal of many rows at once).
    expect((await t.as('iago').delete(`/messages/${group}`)).status).toBe(200);
    for (let i = 0; i < 12; i++) await sendToChannel(t, 'cordelia', 'Denmark', 'bulk', `m${i}`);
    await expectSameAsFresh();
    const bulk = await t
      .as('iago')
      .post(`/streams/${stream(t, 'Denmark').stream_id}/delete_topic`, { topic_name: 'bulk' });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(receivedMessages(t.server.world.store, othello).map((m) => m.topic)).not.toContain('bulk');
    await expectSameAsFresh();
  });
});
