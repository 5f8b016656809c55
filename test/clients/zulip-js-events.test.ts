// The real JavaScript client, zulip-js, against the mock's event queues: local echo, the two
// subscription events of a mute, editing-typing notifications and clock-driven delivery of a
// scheduled message.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { zulipAs } from '../helpers/zulip-js.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ longpollTimeoutSeconds: 1 });
});
afterAll(async () => {
  await t.close();
});

const client = (who: string) => zulipAs(t, who);

async function until<T>(what: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('zulip-js and the event queues', () => {
  it('a send with queue_id and local_id comes back with local_message_id on that queue only', async () => {
    const hamlet = await client('hamlet');
    const othello = await client('othello');
    const echo = await hamlet.queues.register({ event_types: ['message'] });
    const other = await hamlet.queues.register({ event_types: ['message'] });
    const theirs = await othello.queues.register({ event_types: ['message'] });
    expect(echo).toMatchObject({ result: 'success', last_event_id: -1 });

    const sent = await hamlet.messages.send({
      type: 'stream',
      to: 'Denmark',
      topic: 'local echo',
      content: 'echo me',
      queue_id: echo.queue_id,
      local_id: '17.01',
    });
    expect(sent.result).toBe('success');

    const mine = await hamlet.events.retrieve({ queue_id: echo.queue_id, last_event_id: -1 });
    expect(mine.events).toHaveLength(1);
    expect(mine.events[0]).toMatchObject({
      type: 'message',
      local_message_id: '17.01',
      message: { id: sent.id, content: 'echo me' },
    });
    for (const [z, q] of [
      [hamlet, other],
      [othello, theirs],
    ] as const) {
      const r = await z.events.retrieve({ queue_id: q.queue_id, last_event_id: -1 });
      expect(r.events).toHaveLength(1);
      expect(r.events[0].message.id).toBe(sent.id);
      expect(r.events[0]).not.toHaveProperty('local_message_id');
    }
  });

  it('muting a subscription yields two subscription update events', async () => {
    const hamlet = await client('hamlet');
    const denmark = t.server.world.store.streams.by('name', 'denmark')!;
    const q = await hamlet.queues.register({ event_types: ['subscription'] });
    const r = await hamlet.callEndpoint('/users/me/subscriptions/properties', 'POST', {
      subscription_data: [{ stream_id: denmark.stream_id, property: 'is_muted', value: true }],
    });
    expect(r.result).toBe('success');
    const got = await hamlet.events.retrieve({ queue_id: q.queue_id, last_event_id: -1 });
    expect(got.events).toEqual([
      {
        type: 'subscription',
        op: 'update',
        stream_id: denmark.stream_id,
        property: 'in_home_view',
        value: false,
        id: 0,
      },
      { type: 'subscription', op: 'update', stream_id: denmark.stream_id, property: 'is_muted', value: true, id: 1 },
    ]);
  });

  it('editing-typing reaches a user with typing notifications on and not one with them off', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {}); // callOnEachEvent logs its retries after the server closes
    const hamlet = await client('hamlet');
    const iago = await client('iago');
    const othello = await client('othello');
    const off = await othello.callEndpoint('/settings', 'PATCH', { receives_typing_notifications: false });
    expect(off.result).toBe('success');
    expect(t.user('othello').settings.receives_typing_notifications).toBe(false);
    expect(t.user('iago').settings.receives_typing_notifications).toBe(true);

    const sent = await hamlet.messages.send({ type: 'stream', to: 'Denmark', topic: 'typo', content: 'teh castle' });
    const seenByIago: any[] = [];
    iago.callOnEachEvent((event: any) => seenByIago.push(event), ['typing_edit_message']);
    await until(() => (t.server.world.events.queuesOf(t.user('iago').user_id).length ? true : undefined));
    const othelloQueue = await othello.queues.register({ event_types: ['typing_edit_message'] });

    const typing = await hamlet.callEndpoint(`/messages/${sent.id}/typing`, 'POST', { op: 'start' });
    expect(typing.result).toBe('success');
    const event = await until(() => seenByIago.find((e) => e.type === 'typing_edit_message'));
    expect(event).toMatchObject({
      type: 'typing_edit_message',
      op: 'start',
      sender_id: t.user('hamlet').user_id,
      message_id: sent.id,
    });
    const none = await othello.events.retrieve({
      queue_id: othelloQueue.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    expect(none.events).toEqual([]);
  });

  it('a scheduled message is delivered once the clock passes its time, with a new ID, and not before', async () => {
    const hamlet = await client('hamlet');
    const store = t.server.world.store;
    const denmark = store.streams.by('name', 'denmark')!;
    // The hour the clock jumps must not garbage-collect the queue (idle after 10 minutes by default).
    const q = await hamlet.queues.register({
      event_types: ['message', 'scheduled_messages'],
      idle_queue_timeout: 7200,
    });
    const at = t.server.clock.now() + 3600;
    const scheduled = await hamlet.callEndpoint('/scheduled_messages', 'POST', {
      type: 'stream',
      to: denmark.stream_id,
      topic: 'later',
      content: 'sent from the past',
      scheduled_delivery_timestamp: at,
    });
    expect(scheduled.result).toBe('success');
    const sid = scheduled.scheduled_message_id;
    const fresh = (events: any[]) =>
      events.filter((e) => e.type === 'message' && e.message.content.includes('sent from the past'));

    const before = await hamlet.events.retrieve({ queue_id: q.queue_id, last_event_id: -1, dont_block: true });
    expect(before.events.map((e: any) => [e.type, e.op])).toEqual([['scheduled_messages', 'add']]);

    t.server.clock.advance(3590_000);
    const almost = await hamlet.events.retrieve({ queue_id: q.queue_id, last_event_id: 0, dont_block: true });
    expect(fresh(almost.events)).toEqual([]);
    expect(store.scheduledMessages.get(sid)!.delivered_message_id).toBeNull();

    t.server.clock.advance(20_000);
    const after = await hamlet.events.retrieve({ queue_id: q.queue_id, last_event_id: 0, dont_block: true });
    const [delivered] = fresh(after.events);
    expect(delivered.message.id).not.toBe(sid);
    expect(delivered.message).toMatchObject({
      sender_id: t.user('hamlet').user_id,
      stream_id: denmark.stream_id,
      subject: 'later',
    });
    expect(after.events).toContainEqual(
      expect.objectContaining({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: sid }),
    );
    expect(store.scheduledMessages.get(sid)!.delivered_message_id).toBe(delivered.message.id);
    expect(store.messages.get(delivered.message.id)!.content).toBe('sent from the past');
  });
});
