// The legacy muted_topics event: sent, with the user's whole list of muted topics, whenever a
// topic's visibility policy changed, to queues that asked for muted_topics without user_topic and
// to queues that filter no event types; a queue that also asked for user_topic gets user_topic only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { streamId } from '../helpers/fixture-rows.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const setPolicy = (who: string, stream_id: number, topic: string, visibility_policy: number) =>
  t.as(who).post('/user_topics', { stream_id, topic, visibility_policy });
const mutedList = async (who: string) =>
  (await t.as(who).post('/register', { fetch_event_types: ['muted_topics'] })).body.muted_topics;
const types = (events: Array<{ type: string }>) => events.map((e) => e.type);

describe('the muted_topics event', () => {
  it('goes with a change to legacy and unfiltered queues, not to queues that asked for user_topic', async () => {
    const denmark = streamId(t, 'Denmark');
    const legacy = await registerQueue(t, 'othello', ['muted_topics']);
    const all = await registerQueue(t, 'othello');
    const modern = await registerQueue(t, 'othello', ['muted_topics', 'user_topic']);
    expect((await setPolicy('othello', denmark, 'noise', 1)).status).toBe(200);

    const [legacyEvents, allEvents, modernEvents] = [
      await eventsOf(t, 'othello', legacy),
      await eventsOf(t, 'othello', all),
      await eventsOf(t, 'othello', modern),
    ];
    const list = await mutedList('othello');
    expect(list).toContainEqual(['Denmark', 'noise', expect.any(Number)]);
    expect(legacyEvents).toEqual([{ type: 'muted_topics', muted_topics: list, id: 0 }]);
    expect(types(allEvents)).toEqual(['muted_topics', 'user_topic']);
    expect(allEvents[0].muted_topics).toEqual(list);
    expect(types(modernEvents)).toEqual(['user_topic']);
  });

  it('is not sent when nothing changed, and lists what remains muted after an unmute', async () => {
    const denmark = streamId(t, 'Denmark');
    expect((await setPolicy('othello', denmark, 'quiet', 1)).status).toBe(200);
    const legacy = await registerQueue(t, 'othello', ['muted_topics']);
    expect((await setPolicy('othello', denmark, 'quiet', 1)).status).toBe(200);
    expect(await eventsOf(t, 'othello', legacy)).toEqual([]);
    expect((await setPolicy('othello', denmark, 'quiet', 0)).status).toBe(200);
    const [event] = await eventsOf(t, 'othello', legacy);
    expect(event.muted_topics).toEqual(await mutedList('othello'));
    expect(event.muted_topics.map((m: unknown[]) => m[1])).not.toContain('quiet');
  });

  it('setting the policy a topic already has sends no user_topic event either and keeps last_updated', async () => {
    const denmark = streamId(t, 'Denmark');
    expect((await setPolicy('othello', denmark, 'steady', 3)).status).toBe(200);
    const before = (await t.as('othello').post('/register', { fetch_event_types: ['user_topic'] })).body.user_topics;
    const all = await registerQueue(t, 'othello');
    expect((await setPolicy('othello', denmark, 'STEADY', 3)).status).toBe(200);
    expect((await setPolicy('othello', denmark, 'never set', 0)).status).toBe(200);
    expect(await eventsOf(t, 'othello', all)).toEqual([]);
    const after = (await t.as('othello').post('/register', { fetch_event_types: ['user_topic'] })).body.user_topics;
    expect(after).toEqual(before);
  });

  it('shows the empty topic by its display name to clients without empty_topic_name', async () => {
    const denmark = streamId(t, 'Denmark');
    const legacy = await registerQueue(t, 'othello', ['muted_topics']);
    expect((await setPolicy('othello', denmark, '', 1)).status).toBe(200);
    const [event] = await eventsOf(t, 'othello', legacy);
    expect(event.muted_topics).toContainEqual(['Denmark', 'general chat', expect.any(Number)]);
    expect(event.muted_topics).toEqual(await mutedList('othello'));
  });
});
