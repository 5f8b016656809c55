// A channel's first_message_id follows its messages: deleting the oldest one (one message, a
// topic, a deactivated user's messages) or moving it to another channel changes what GET
// /streams and /register show, and the users told of the change get a stream/update event
// with the new value, before the delete_message event (FL 256; older queues get none).
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { sendToChannel } from '../helpers/messages.js';
import { streamId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const firstOf = async (who: string, id: number) => (await t.as(who).get(`/streams/${id}`)).body.stream.first_message_id;
const registeredFirst = async (who: string, id: number) => {
  const r = await t.as(who).post('/register', { fetch_event_types: ['subscription'] });
  return [...r.body.subscriptions, ...r.body.unsubscribed, ...r.body.never_subscribed].find(
    (s: any) => s.stream_id === id,
  ).first_message_id;
};
const update = (id: number, name: string, value: number | null) => ({
  type: 'stream',
  op: 'update',
  property: 'first_message_id',
  value,
  stream_id: id,
  name,
  id: expect.any(Number),
});

/** A new channel Kyoto, Hamlet and Othello subscribed, with three messages: two in "a", one in "b". */
async function kyoto(): Promise<{ id: number; messages: number[] }> {
  expect(
    (
      await t.as('hamlet').post('/users/me/subscriptions', {
        subscriptions: [{ name: 'Kyoto' }],
        principals: [t.user('hamlet').user_id, t.user('othello').user_id],
      })
    ).status,
  ).toBe(200);
  const messages = [
    await sendToChannel(t, 'hamlet', 'Kyoto', 'a', 'one'),
    await sendToChannel(t, 'othello', 'Kyoto', 'b', 'two'),
    await sendToChannel(t, 'hamlet', 'Kyoto', 'a', 'three'),
  ];
  return { id: streamId(t, 'Kyoto'), messages };
}

describe("a channel's first_message_id after deletions", () => {
  it('follows the deletion of the oldest message, with stream/update before delete_message', async () => {
    const { id, messages } = await kyoto();
    expect(await firstOf('hamlet', id)).toBe(messages[0]);
    const queue = await registerQueue(t, 'othello', ['stream', 'delete_message'], {
      client_capabilities: { bulk_message_deletion: true },
    });
    expect((await t.as('othello').delete(`/messages/${messages[1]}`)).body).toEqual(ok);
    expect((await t.as('hamlet').delete(`/messages/${messages[0]}`)).body).toEqual(ok);
    const events = await eventsOf(t, 'othello', queue);
    expect(events.map((e) => e.type)).toEqual(['delete_message', 'stream', 'delete_message']);
    expect(events[1]).toEqual(update(id, 'Kyoto', messages[2]));
    expect(await firstOf('othello', id)).toBe(messages[2]);
    expect(await registeredFirst('othello', id)).toBe(messages[2]);
  });

  it('becomes null when delete_topic takes the last messages, and tells the administrator who deleted them', async () => {
    const { id } = await kyoto();
    const queue = await registerQueue(t, 'iago', ['stream']);
    expect((await t.as('iago').post(`/streams/${id}/delete_topic`, { topic_name: 'A' })).body).toEqual({
      ...ok,
      complete: true,
    });
    expect((await t.as('iago').post(`/streams/${id}/delete_topic`, { topic_name: 'b' })).body).toEqual({
      ...ok,
      complete: true,
    });
    expect(await eventsOf(t, 'iago', queue)).toEqual([
      expect.objectContaining({ property: 'first_message_id' }),
      update(id, 'Kyoto', null),
    ]);
    expect(await firstOf('hamlet', id)).toBeNull();
  });

  it('sends nothing to queues older than FL 256, nor when a later message is deleted', async () => {
    const { messages } = await kyoto();
    const old = await registerQueue(t, 'othello', ['stream']);
    const oldLevel = await t
      .as('hamlet', { 'X-Mock-Feature-Level': '255' })
      .post('/register', { event_types: ['stream'], fetch_event_types: [] });
    await t.as('hamlet').delete(`/messages/${messages[2]}`);
    expect(await eventsOf(t, 'othello', old)).toEqual([]);
    await t.as('hamlet').delete(`/messages/${messages[0]}`);
    expect(await eventsOf(t, 'othello', old)).toHaveLength(1);
    expect(await eventsOf(t, 'hamlet', oldLevel.body.queue_id)).toEqual([]);
  });

  it("follows a deactivated user's deleted messages", async () => {
    const { id, messages } = await kyoto();
    const queue = await registerQueue(t, 'othello', ['stream']);
    expect(
      (
        await t
          .as('desdemona')
          .delete(`/users/${t.user('hamlet').user_id}`, { actions: { delete_public_channel_messages: true } })
      ).status,
    ).toBe(200);
    expect(await eventsOf(t, 'othello', queue)).toContainEqual(update(id, 'Kyoto', messages[1]));
    expect(await firstOf('othello', id)).toBe(messages[1]);
  });
});

describe("a channel's first_message_id after moves", () => {
  it('follows the oldest message moved out of one channel and into another older than its own', async () => {
    const { id, messages } = await kyoto();
    // Rome's messages are all older than Kyoto's: move one of Rome's oldest in.
    const rome = streamId(t, 'Rome');
    const romeFirst = await firstOf('hamlet', rome);
    const queue = await registerQueue(t, 'hamlet', ['stream']);
    const moved = await t.as('iago').patch(`/messages/${messages[0]}`, {
      stream_id: rome,
      propagate_mode: 'change_one',
      send_notification_to_new_thread: false,
      send_notification_to_old_thread: false,
    });
    expect(moved.status).toBe(200);
    expect(await eventsOf(t, 'hamlet', queue)).toEqual([update(id, 'Kyoto', messages[1])]);
    const back = await t.as('iago').patch(`/messages/${romeFirst}`, {
      stream_id: id,
      propagate_mode: 'change_one',
      send_notification_to_new_thread: false,
      send_notification_to_old_thread: false,
    });
    expect(back.status).toBe(200);
    const events = await eventsOf(t, 'hamlet', queue);
    expect(events.slice(1).map((e) => [e.stream_id, e.value])).toEqual([
      [rome, expect.any(Number)],
      [id, romeFirst],
    ]);
    expect(await firstOf('hamlet', id)).toBe(romeFirst);
    expect(await firstOf('hamlet', rome)).toBe(events[1].value);
  });
});
