// Scheduled messages once created: GET /scheduled_messages, PATCH and DELETE
// /scheduled_messages/{id}. Creating and delivering them: scheduled-messages-create.test.ts.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { watchEvents } from '../helpers/events.js';
import { streamId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const store = () => t.server.world.store;
const id = (who: string) => t.user(who).user_id;
const later = () => t.server.clock.now() + 3600;

describe('GET /scheduled_messages', () => {
  it("lists the caller's unsent scheduled messages only", async () => {
    const r = await t.as('hamlet').get('/scheduled_messages');
    expect(r.status).toBe(200);
    expect(r.body.scheduled_messages).toEqual([
      {
        scheduled_message_id: 1,
        type: 'stream',
        to: streamId(t, 'Verona'),
        topic: 'greetings',
        content: 'Happy **new year**, everyone!',
        rendered_content: '<p>Happy <strong>new year</strong>, everyone!</p>',
        scheduled_delivery_timestamp: 1798761600,
        failed: false,
      },
    ]);
    const iago = await t.as('iago').get('/scheduled_messages');
    expect(iago.body.scheduled_messages.map((m: any) => m.scheduled_message_id)).toEqual([2]);
    expect(iago.body.scheduled_messages[0]).not.toHaveProperty('topic');
  });

  it('includes what the caller schedules, ordered by delivery time', async () => {
    const made = await t.as('hamlet').post('/scheduled_messages', {
      type: 'direct',
      to: [id('othello')],
      content: 'soon',
      scheduled_delivery_timestamp: later(),
    });
    const list = (await t.as('hamlet').get('/scheduled_messages')).body.scheduled_messages;
    expect(list.map((m: any) => m.scheduled_message_id)).toEqual([made.body.scheduled_message_id, 1]);
  });
});

describe('DELETE /scheduled_messages/{id}', () => {
  it("unschedules the message and tells the owner's clients", async () => {
    const seen = watchEvents(t);
    expect((await t.as('hamlet').delete('/scheduled_messages/1')).status).toBe(200);
    expect((await t.as('hamlet').get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
    expect(seen.map((s) => s.event)).toEqual([{ type: 'scheduled_messages', op: 'remove', scheduled_message_id: 1 }]);
    expect(seen[0].users).toEqual([id('hamlet')]);
    expectError(
      await t.as('hamlet').delete('/scheduled_messages/1'),
      404,
      'BAD_REQUEST',
      'Scheduled message does not exist',
    );
  });

  it("answers 404 for another user's scheduled message", async () => {
    expectError(
      await t.as('iago').delete('/scheduled_messages/1'),
      404,
      'BAD_REQUEST',
      'Scheduled message does not exist',
    );
    expect(store().scheduledMessages.get(1)).toBeDefined();
  });
});

describe('PATCH /scheduled_messages/{id}', () => {
  it('changes the content and time, keeps the rest, and sends an update event', async () => {
    const seen = watchEvents(t);
    const when = later();
    expect(
      (
        await t
          .as('hamlet')
          .patch('/scheduled_messages/1', { content: 'Happy *new* year', scheduled_delivery_timestamp: when })
      ).status,
    ).toBe(200);
    const [msg] = (await t.as('hamlet').get('/scheduled_messages')).body.scheduled_messages;
    expect(msg).toMatchObject({
      scheduled_message_id: 1,
      type: 'stream',
      topic: 'greetings',
      content: 'Happy *new* year',
      rendered_content: '<p>Happy <em>new</em> year</p>',
      scheduled_delivery_timestamp: when,
    });
    expect(seen.map((s) => s.event)).toEqual([{ type: 'scheduled_messages', op: 'update', scheduled_message: msg }]);
  });

  it('turns a channel message into a direct message and back', async () => {
    await t.as('hamlet').patch('/scheduled_messages/1', { type: 'direct', to: [id('othello')] });
    let [msg] = (await t.as('hamlet').get('/scheduled_messages')).body.scheduled_messages;
    expect(msg).toMatchObject({ type: 'private', to: [id('othello')] });
    expect(msg).not.toHaveProperty('topic');
    await t.as('hamlet').patch('/scheduled_messages/1', { type: 'stream', to: streamId(t, 'Denmark'), topic: 'plans' });
    [msg] = (await t.as('hamlet').get('/scheduled_messages')).body.scheduled_messages;
    expect(msg).toMatchObject({ type: 'stream', to: streamId(t, 'Denmark'), topic: 'plans' });
  });

  it('clears failed when a failed message is edited', async () => {
    store().scheduledMessages.update(store().scheduledMessages.get(1)!, { failed: true });
    await t.as('hamlet').patch('/scheduled_messages/1', { scheduled_delivery_timestamp: later() });
    expect((await t.as('hamlet').get('/scheduled_messages')).body.scheduled_messages[0].failed).toBe(false);
  });

  it('refuses an empty change, a type without recipients, a channel type without topic and a past time', async () => {
    expectError(await t.as('hamlet').patch('/scheduled_messages/1', {}), 400, 'BAD_REQUEST', 'Nothing to change');
    expectError(
      await t.as('hamlet').patch('/scheduled_messages/1', { type: 'direct' }),
      400,
      'BAD_REQUEST',
      'Recipient required when updating type of scheduled message.',
    );
    expectError(
      await t.as('hamlet').patch('/scheduled_messages/1', { type: 'channel', to: 1 }),
      400,
      'BAD_REQUEST',
      'Topic required when updating scheduled message type to channel.',
    );
    expectError(
      await t.as('hamlet').patch('/scheduled_messages/1', { scheduled_delivery_timestamp: t.server.clock.now() - 10 }),
      400,
      'BAD_REQUEST',
      'Scheduled delivery time must be in the future.',
    );
    expect(store().scheduledMessages.get(1)!.content).toBe('Happy **new year**, everyone!');
  });

  it('checks the result like a new message', async () => {
    expectError(
      await t.as('hamlet').patch('/scheduled_messages/1', { to: 99 }),
      400,
      'STREAM_DOES_NOT_EXIST',
      "Channel with ID '99' does not exist",
    );
    expect(store().scheduledMessages.get(1)!.to).toBe(streamId(t, 'Verona'));
  });

  it("answers 404 for another user's scheduled message", async () => {
    expectError(
      await t.as('iago').patch('/scheduled_messages/1', { content: 'mine now' }),
      404,
      'BAD_REQUEST',
      'Scheduled message does not exist',
    );
  });
});
