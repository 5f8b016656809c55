// Reusing answers to reads (src/http/answer-cache.ts): a reused answer must be exactly what
// building it again would give, so every input it depends on has to make it be built anew.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  t.server.world.clock.reset();
});

const subs = async (who = 'hamlet', params: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
  const r = await t.as(who, headers).get('/users/me/subscriptions', params);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.subscriptions as Array<Record<string, any>>;
};
const denmark = (list: Array<Record<string, any>>) => list.find((s) => s.name === 'Denmark')!;

describe('answers to reads are reused only while nothing they depend on changed', () => {
  it('a change of state shows in the very next read of the same URL', async () => {
    t.server.world.clock.freeze();
    expect(denmark(await subs()).color).not.toBe('#123456');
    const set = await t.as('hamlet').post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: denmark(await subs()).stream_id, property: 'color', value: '#123456' }],
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(denmark(await subs()).color).toBe('#123456');
  });

  it('a change made through the store directly (a fixture edit, the control API) shows too', async () => {
    t.server.world.clock.freeze();
    const before = denmark(await subs());
    t.server.world.store.streams.update(t.server.world.store.streams.get(before.stream_id)!, {
      description: 'Changed behind the API',
    });
    expect(denmark(await subs()).description).toBe('Changed behind the API');
  });

  it('time-dependent fields follow the clock: a new second is a new answer', async () => {
    t.server.world.clock.freeze();
    const recent = (await subs()).filter((s) => s.is_recently_active).map((s) => s.name);
    expect(recent.length).toBeGreaterThan(0);
    expect(recent).toContain('Denmark');
    // Within the same second the answer is the same; 400 days later the old channels are quiet
    // (only scheduled messages delivered on the way make a channel active again).
    t.server.world.clock.advance(1);
    expect((await subs()).filter((s) => s.is_recently_active).map((s) => s.name)).toEqual(recent);
    t.server.world.clock.advance(400 * 86_400_000);
    expect(denmark(await subs()).is_recently_active).toBe(false);
  });

  it('the caller, the parameters and the feature level each get their own answer', async () => {
    t.server.world.clock.freeze();
    const hamlet = (await subs('hamlet')).map((s) => s.name);
    const iago = (await subs('iago')).map((s) => s.name);
    expect(iago).not.toEqual(hamlet);
    expect(denmark(await subs('hamlet')).subscribers).toBeUndefined();
    expect(denmark(await subs('hamlet', { include_subscribers: true })).subscribers).toContain(
      t.user('hamlet').user_id,
    );
    // Older levels lack the fields added since (and carry some removed since).
    const old = denmark(await subs('hamlet', {}, { 'X-Mock-Feature-Level': '1' }));
    const now = denmark(await subs('hamlet'));
    expect(Object.keys(old).sort()).not.toEqual(Object.keys(now).sort());
  });

  it('a reused answer is journaled like any other, with its parameters', async () => {
    t.server.world.clock.freeze();
    await subs('hamlet', { include_subscribers: true });
    await subs('hamlet', { include_subscribers: true });
    const { entries } = t.server.journal.query({ operation: 'get-subscriptions', limit: 2 });
    expect(entries).toHaveLength(2);
    for (const e of entries) {
      expect(e).toMatchObject({ status: 200, user: 'hamlet@zulip.com', params: { include_subscribers: true } });
      expect((e.response as any).subscriptions.length).toBeGreaterThan(0);
    }
    expect(entries[0].response).toEqual(entries[1].response);
  });

  it('GET /events is never reused: it acknowledges events', async () => {
    const reg = await t.as('hamlet').post('/register', { event_types: ['message'] });
    const poll = (last: number) =>
      t.as('hamlet').get('/events', { queue_id: reg.body.queue_id, last_event_id: last, dont_block: true });
    expect((await poll(-1)).body.events).toEqual([]);
    await t.as('othello').post('/messages', { type: 'stream', to: 'Denmark', topic: 'cache', content: 'hi' });
    const events = (await poll(-1)).body.events;
    expect(events.map((e: any) => e.type)).toEqual(['message']);
  });
});

describe('answerCache: false builds every answer anew', () => {
  it('sees every change made through the store at once; an edit behind its back is seen by neither mode', async () => {
    const plain = await startTestServer({ answerCache: false });
    try {
      plain.server.world.clock.freeze();
      const read = async () =>
        (await plain.as('hamlet').get('/users/me/subscriptions')).body.subscriptions.find(
          (s: any) => s.name === 'Denmark',
        );
      const store = plain.server.world.store;
      const stream = store.streams.get((await read()).stream_id)!;
      expect((await read()).description).not.toBe('edited through the store');
      store.streams.update(stream, { description: 'edited through the store' });
      expect((await read()).description).toBe('edited through the store');
    } finally {
      await plain.close();
    }
    // Reads reuse kept parts (a subscription's dict) while the store says nothing they show changed,
    // with or without the answer cache: an in-place edit is not seen, even after the second changes.
    t.server.world.clock.freeze();
    const id = denmark(await subs()).stream_id;
    const before = denmark(await subs()).description;
    t.server.world.store.streams.get(id)!.description = 'edited in place';
    expect(denmark(await subs()).description).toBe(before);
    t.server.world.clock.advance(1000);
    expect(denmark(await subs()).description).toBe(before);
  });
});
