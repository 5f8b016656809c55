// DELETE /streams/{id} (archive) and POST /streams/{id}/delete_topic: who may, what an archived
// channel still allows, the state read back, the events other users' queues get, and a topic
// larger than one request deletes (complete=false, repeated until true).
import { describe, expect, it } from 'vitest';
import { serverPerTest, startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const send = (as: string, to: string, topic: string, content = 'hi') =>
  t.as(as).post('/messages', { type: 'stream', to, topic, content });

describe('archiving a channel', () => {
  it('archives for an administrator; messages stay readable, sending is refused; queues get update or delete', async () => {
    const withCap = await registerQueue(t, 'hamlet', ['stream'], { client_capabilities: { archived_channels: true } });
    const without = await registerQueue(t, 'othello', ['stream']);
    expect((await t.as('hamlet').delete('/streams/4')).body).toEqual(
      error('BAD_REQUEST', 'You do not have permission to administer this channel.'),
    );
    expect((await t.as('iago').delete('/streams/4')).body).toEqual(ok);
    expect((await t.as('iago').get('/streams/4')).body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
    const history = await t.as('hamlet').get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'channel', operand: 4 }]),
    });
    expect(history.body.messages.at(-1)).toMatchObject({
      subject: 'channel events',
      content: expect.stringContaining('has been archived.'),
      // Read for every subscriber: nobody is left with an unread message in an archived channel.
      flags: expect.arrayContaining(['read']),
    });
    expect((await send('hamlet', 'Venice', 'x')).body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect((await t.as('iago').delete('/streams/4')).body).toEqual(
      error('BAD_REQUEST', 'Channel is already deactivated'),
    );
    expect(await eventsOf(t, 'hamlet', withCap)).toEqual([
      expect.objectContaining({ type: 'stream', op: 'update', property: 'is_archived', value: true, stream_id: 4 }),
    ]);
    // From FL 343: the IDs, and `streams` with only each channel's ID (the real send_stream_deletion_event).
    expect(await eventsOf(t, 'othello', without)).toEqual([
      { type: 'stream', op: 'delete', streams: [{ stream_id: 4 }], stream_ids: [4], id: 0 },
    ]);
  });

  it('gives a queue registered before FL 343 the whole channel, at its level, and no stream_ids', async () => {
    const before = (await t.as('othello').get('/streams/4')).body.stream;
    const registered = await t
      .as('othello', { 'X-Mock-Feature-Level': '342' })
      .post('/register', { event_types: ['stream'], fetch_event_types: [] });
    const old = registered.body.queue_id;
    expect((await t.as('iago').delete('/streams/4')).body).toEqual(ok);
    const [event] = await eventsOf(t, 'othello', old);
    expect(Object.keys(event).sort()).toEqual(['id', 'op', 'streams', 'type']);
    expect(event.streams).toHaveLength(1);
    // The channel as it was, with the fields a 342 server had (none of the later group settings).
    expect(event.streams[0]).toMatchObject({ stream_id: 4, name: before.name, description: before.description });
    expect(event.streams[0]).not.toHaveProperty('can_delete_any_message_group');
    expect(event.streams[0]).toHaveProperty('can_remove_subscribers_group');
  });
});

describe('deleting a topic', () => {
  it('deletes every message of the topic for an administrator, in batches of 100, with delete_message events', async () => {
    for (let i = 0; i < 101; i++) await send('othello', 'Denmark', 'bulk', `m${i}`);
    const queue = await registerQueue(t, 'hamlet', ['delete_message'], {
      client_capabilities: { bulk_message_deletion: true },
    });
    expect((await t.as('hamlet').post('/streams/1/delete_topic', { topic_name: 'bulk' })).body).toEqual(
      error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'),
    );
    expect((await t.as('iago').post('/streams/1/delete_topic', { topic_name: 'BULK' })).body).toEqual({
      ...ok,
      complete: true,
    });
    const left = await t.as('hamlet').get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: JSON.stringify([
        { operator: 'channel', operand: 1 },
        { operator: 'topic', operand: 'bulk' },
      ]),
    });
    expect(left.body.messages).toEqual([]);
    const events = await eventsOf(t, 'hamlet', queue);
    expect(events.map((e) => e.message_ids.length)).toEqual([100, 1]);
    expect(events[0]).toMatchObject({ type: 'delete_message', message_type: 'stream', stream_id: 1, topic: 'bulk' });
  });

  it('stops after its batches with complete=false; the repeated call finishes and then resets visibility policies', async () => {
    const small = await startTestServer({ deleteTopicBatches: 1 });
    try {
      const send = (i: number) =>
        small.as('othello').post('/messages', { type: 'stream', to: 'Denmark', topic: 'bulk', content: `m${i}` });
      for (let i = 0; i < 150; i++) expect((await send(i)).status).toBe(200);
      expect(
        (await small.as('hamlet').post('/user_topics', { stream_id: 1, topic: 'bulk', visibility_policy: 1 })).status,
      ).toBe(200);
      const queue = await registerQueue(small, 'hamlet', ['delete_message', 'user_topic'], {
        client_capabilities: { bulk_message_deletion: true },
      });
      const first = await small.as('iago').post('/streams/1/delete_topic', { topic_name: 'bulk' });
      expect(first.body).toEqual({ ...ok, complete: false });
      const afterFirst = await eventsOf(small, 'hamlet', queue);
      expect(afterFirst.map((e) => [e.type, e.message_ids?.length])).toEqual([['delete_message', 100]]);
      // The newest went first: the oldest 50 are left.
      const left = small.server.world.store.messages
        .filter((m) => m.stream_id === 1 && m.topic === 'bulk')
        .map((m) => m.content);
      expect(left).toEqual(Array.from({ length: 50 }, (_, i) => `m${i}`));
      expect((await small.as('iago').post('/streams/1/delete_topic', { topic_name: 'bulk' })).body).toEqual({
        ...ok,
        complete: true,
      });
      const afterSecond = (await eventsOf(small, 'hamlet', queue)).slice(afterFirst.length);
      expect(afterSecond.map((e) => [e.type, e.message_ids?.length ?? e.visibility_policy])).toEqual([
        ['delete_message', 50],
        ['user_topic', 0],
      ]);
    } finally {
      await small.close();
    }
  });

  it('deletes the whole topic in one request before FL 211, which had no complete field', async () => {
    const small = await startTestServer({ deleteTopicBatches: 1 });
    try {
      for (let i = 0; i < 101; i++)
        await small.as('othello').post('/messages', { type: 'stream', to: 'Denmark', topic: 'bulk', content: `m${i}` });
      const r = await small
        .as('iago', { 'X-Mock-Feature-Level': '210' })
        .post('/streams/1/delete_topic', { topic_name: 'bulk' });
      expect(r.body).toEqual(ok);
      expect(small.server.world.store.messages.filter((m) => m.topic === 'bulk')).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('refuses archived and unknown channels', async () => {
    expect((await t.as('iago').post('/streams/999/delete_topic', { topic_name: 'x' })).body).toEqual(
      error('BAD_REQUEST', 'Invalid channel ID'),
    );
    await t.as('iago').delete('/streams/5');
    expect((await t.as('iago').post('/streams/5/delete_topic', { topic_name: 'x' })).body).toEqual(
      error('BAD_REQUEST', 'Invalid channel ID'),
    );
  });
});
