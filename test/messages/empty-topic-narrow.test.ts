// A topic narrow naming "general chat", the empty topic's display name, finds the empty topic in
// the operations that search stored messages, as the real server's narrow rewrite does (only the
// first topic term, only the exact name); an event queue's narrow takes the name as written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sendToChannel } from '../helpers/messages.js';
import { eventsOf, registerQueue } from '../helpers/events.js';

let t: TestServer;
let empty: number;
let named: number;
beforeAll(async () => {
  t = await startTestServer();
  empty = await sendToChannel(t, 'hamlet', 'Denmark', '', 'in the general chat');
  named = await sendToChannel(t, 'hamlet', 'Denmark', 'lunch', 'soup');
});
afterAll(() => t.close());

const narrow = (topic: string, extra: unknown[] = []) => [
  { operator: 'channel', operand: 'Denmark' },
  { operator: 'topic', operand: topic },
  ...extra,
];
const fetchIds = async (n: unknown[]) => {
  const r = await t.as('othello').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: n });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.messages.map((m: { id: number }) => m.id);
};

describe('"general chat" as a topic operand', () => {
  it('GET /messages finds the empty topic by its display name, and only by the exact name in the first topic term', async () => {
    expect(t.server.world.store.messages.get(empty)!.topic).toBe('');
    expect(await fetchIds(narrow('general chat'))).toEqual([empty]);
    expect(await fetchIds(narrow('General Chat'))).toEqual([]);
    expect(await fetchIds(narrow('lunch'))).toEqual([named]);
    // A second topic term is taken as written: "general chat" is no topic of Denmark.
    expect(await fetchIds(narrow('general chat', [{ operator: 'topic', operand: 'general chat' }]))).toEqual([]);
  });

  it('GET /messages/matches_narrow matches the empty topic by its display name', async () => {
    const r = await t
      .as('othello')
      .get('/messages/matches_narrow', { msg_ids: [empty, named], narrow: narrow('general chat') });
    expect(Object.keys(r.body.messages)).toEqual([String(empty)]);
  });

  it("POST /messages/flags/narrow changes the empty topic's messages by its display name", async () => {
    const r = await t.as('othello').post('/messages/flags/narrow', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 100,
      narrow: narrow('general chat'),
      op: 'add',
      flag: 'starred',
    });
    expect(r.body).toMatchObject({ result: 'success', processed_count: 1, updated_count: 1 });
    expect(t.server.world.store.messages.get(empty)!.flags[String(t.user('othello').user_id)]).toContain('starred');
    expect(t.server.world.store.messages.get(named)!.flags[String(t.user('othello').user_id)] ?? []).not.toContain(
      'starred',
    );
  });

  it('an event queue narrowed to "general chat" does not hear of the empty topic', async () => {
    const queue = await registerQueue(t, 'othello', ['message'], {
      narrow: JSON.stringify([
        ['channel', 'Denmark'],
        ['topic', 'general chat'],
      ]),
    });
    await sendToChannel(t, 'hamlet', 'Denmark', '', 'again');
    expect(await eventsOf(t, 'othello', queue)).toEqual([]);
  });
});
