// POST /scheduled_messages and the delivery of scheduled messages (deliverDue, and the clock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, recordingSink, registerQueue } from '../helpers/events.js';
import { stream } from '../helpers/fixture-rows.js';
import { readBack } from '../helpers/read-back.js';
import { deliverDue } from '../../src/domain/scheduled-messages/delivery.js';
import { worldAt } from '../helpers/world.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const store = () => t.server.world.store;
const now = () => t.server.clock.now();
const schedule = (who: string, params: Record<string, unknown>) => t.as(who).post('/scheduled_messages', params);

describe('POST /scheduled_messages', () => {
  it('schedules a channel message and returns its scheduled_message_id', async () => {
    const q = await registerQueue(t, 'hamlet', ['scheduled_messages']);
    const at = now() + 10 * 86400;
    const denmark = stream(t, 'Denmark').stream_id;
    const r = await schedule('hamlet', {
      type: 'stream',
      to: denmark,
      topic: 'plans',
      content: 'See you **tomorrow**',
      scheduled_delivery_timestamp: at,
    });
    expect(r.status).toBe(200);
    const sid = r.body.scheduled_message_id;
    expect(r.body).toEqual({ result: 'success', msg: '', scheduled_message_id: sid });
    expect(store().scheduledMessages.get(sid)).toMatchObject({
      sender_id: t.user('hamlet').user_id,
      type: 'stream',
      to: denmark,
      topic: 'plans',
      content: 'See you **tomorrow**',
      rendered_content: '<p>See you <strong>tomorrow</strong></p>',
      scheduled_delivery_timestamp: at,
      failed: false,
      delivered_message_id: null,
    });
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      {
        type: 'scheduled_messages',
        op: 'add',
        id: 0,
        scheduled_messages: [
          {
            scheduled_message_id: sid,
            type: 'stream',
            to: denmark,
            topic: 'plans',
            content: 'See you **tomorrow**',
            rendered_content: '<p>See you <strong>tomorrow</strong></p>',
            scheduled_delivery_timestamp: at,
            failed: false,
          },
        ],
      },
    ]);
  });

  it('schedules a direct message to user IDs', async () => {
    const othello = t.user('othello').user_id;
    const r = await schedule('hamlet', {
      type: 'direct',
      to: [othello],
      content: 'later',
      scheduled_delivery_timestamp: now() + 10 * 86400,
    });
    expect(r.status).toBe(200);
    expect(store().scheduledMessages.get(r.body.scheduled_message_id)).toMatchObject({
      type: 'private',
      to: [othello],
      topic: '',
    });
  });

  it('refuses an unknown channel with STREAM_DOES_NOT_EXIST and stream_id', async () => {
    const r = await schedule('hamlet', {
      type: 'stream',
      to: 999,
      topic: 'x',
      content: 'hi',
      scheduled_delivery_timestamp: now() + 60,
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('STREAM_DOES_NOT_EXIST', "Channel with ID '999' does not exist", { stream_id: 999 }));
  });

  it('refuses an unknown user with BAD_REQUEST', async () => {
    const r = await schedule('hamlet', {
      type: 'direct',
      to: [999],
      content: 'hi',
      scheduled_delivery_timestamp: now() + 60,
    });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid user ID 999'));
  });

  it('refuses a delivery time that is not in the future', async () => {
    const before = store().scheduledMessages.size;
    for (const at of [now() - 1, now()]) {
      const r = await schedule('hamlet', {
        type: 'stream',
        to: stream(t, 'Denmark').stream_id,
        topic: 'x',
        content: 'hi',
        scheduled_delivery_timestamp: at,
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', 'Scheduled delivery time must be in the future.'));
    }
    expect(store().scheduledMessages.size).toBe(before);
  });

  it('applies the send rules when scheduling (topic, permission)', async () => {
    const missing = await schedule('hamlet', {
      type: 'stream',
      to: stream(t, 'Denmark').stream_id,
      content: 'hi',
      scheduled_delivery_timestamp: now() + 60,
    });
    expect(missing.body).toEqual(error('BAD_REQUEST', 'Missing topic'));
    const venice = await schedule('hamlet', {
      type: 'stream',
      to: stream(t, 'Venice').stream_id,
      topic: 'x',
      content: 'hi',
      scheduled_delivery_timestamp: now() + 60,
    });
    expect(venice.body).toEqual(error('BAD_REQUEST', 'You do not have permission to post in this channel.'));
    const missingTime = await schedule('hamlet', {
      type: 'stream',
      to: stream(t, 'Denmark').stream_id,
      topic: 'x',
      content: 'hi',
    });
    expect(missingTime.body).toEqual(
      error('REQUEST_VARIABLE_MISSING', "Missing 'scheduled_delivery_timestamp' argument", {
        var_name: 'scheduled_delivery_timestamp',
      }),
    );
  });
});

describe('delivery of scheduled messages', () => {
  it('deliverDue sends what is due as a new message with its own ID, and nothing early', async () => {
    const at = now() + 500;
    const r = await schedule('othello', {
      type: 'stream',
      to: stream(t, 'Verona').stream_id,
      topic: 'timed',
      content: 'on time',
      scheduled_delivery_timestamp: at,
    });
    const sid = r.body.scheduled_message_id;
    const { sink, of } = recordingSink();

    deliverDue(worldAt(store(), sink, at - 1));
    expect(store().scheduledMessages.get(sid)!.delivered_message_id).toBeNull();
    expect(of('message')).toEqual([]);

    deliverDue(worldAt(store(), sink, at));
    const sm = store().scheduledMessages.get(sid)!;
    expect(sm.delivered_message_id).not.toBeNull();
    expect(sm.delivered_message_id).not.toBe(sid);
    const message = store().messages.get(sm.delivered_message_id!)!;
    expect(message).toMatchObject({
      sender_id: t.user('othello').user_id,
      stream_id: stream(t, 'Verona').stream_id,
      topic: 'timed',
      content: 'on time',
      timestamp: at,
    });
    expect(
      of('message')
        .map((s) => s.userId)
        .sort(),
    ).toEqual(Object.keys(message.flags).map(Number).sort());
    expect(of('scheduled_messages')).toEqual([
      {
        userId: t.user('othello').user_id,
        event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: sid },
      },
    ]);
    // Delivered once only.
    deliverDue(worldAt(store(), sink, at + 100));
    expect(of('message')).toHaveLength(Object.keys(message.flags).length);
  });

  it('delivers through the clock: the message can be read back and the client is told', async () => {
    const q = await registerQueue(t, 'hamlet', ['message', 'scheduled_messages'], { idle_queue_timeout: 7200 });
    const othello = t.user('othello').user_id;
    const r = await schedule('hamlet', {
      type: 'direct',
      to: [othello],
      content: 'scheduled hello',
      scheduled_delivery_timestamp: now() + 120,
      read_by_sender: true,
    });
    const sid = r.body.scheduled_message_id;
    t.server.clock.advance(121_000);
    const delivered = store().scheduledMessages.get(sid)!.delivered_message_id!;
    expect(delivered).toBeGreaterThan(0);
    expect(await readBack(t, 'othello', delivered, [{ operator: 'dm', operand: [t.user('hamlet').user_id] }])).toEqual({
      match_content: '<p>scheduled hello</p>',
      match_subject: '',
    });
    // read_by_sender was kept for the delivery.
    expect(await readBack(t, 'hamlet', delivered, [{ operator: 'is', operand: 'unread' }])).toBeUndefined();
    const events = await eventsOf(t, 'hamlet', q);
    expect(events.map((e) => [e.type, e.op])).toEqual([
      ['scheduled_messages', 'add'],
      ['message', undefined],
      ['scheduled_messages', 'remove'],
    ]);
  });

  it('marks a message that can no longer be sent as failed and tells its author', async () => {
    const at = now() + 300;
    const r = await schedule('hamlet', {
      type: 'stream',
      to: stream(t, 'Scotland').stream_id,
      topic: 'doomed',
      content: 'never sent',
      scheduled_delivery_timestamp: at,
    });
    const sid = r.body.scheduled_message_id;
    store().streams.update(stream(t, 'Scotland'), { is_archived: true });
    try {
      const { sink, of } = recordingSink();
      deliverDue(worldAt(store(), sink, at));
      expect(store().scheduledMessages.get(sid)).toMatchObject({ failed: true, delivered_message_id: null });
      expect(of('scheduled_messages')[0].event).toMatchObject({
        type: 'scheduled_messages',
        op: 'update',
        scheduled_message: { scheduled_message_id: sid, failed: true },
      });
      const notice = of('message').find((s) => s.userId === t.user('hamlet').user_id)!.event as any;
      expect(notice.message).toMatchObject({ sender_id: store().realm.notification_bot_id, type: 'private' });
      expect(notice.message.content).toContain("Not authorized to send to channel 'Scotland'");
    } finally {
      store().streams.update(stream(t, 'Scotland'), { is_archived: false });
    }
  });
});
