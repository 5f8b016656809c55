// POST /messages/flags/narrow and the deprecated POST /mark_all_as_read, /mark_stream_as_read,
// /mark_topic_as_read.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { streamId } from '../helpers/fixture-rows.js';
import { sendToChannel } from '../helpers/messages.js';
import { readMessage } from '../helpers/read-back.js';
import { ControlClient } from '../../src/control/client.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await new ControlClient(t.base).reset();
});

const topicNarrow = (channel: string, topic: string) => [
  { operator: 'channel', operand: channel },
  { operator: 'topic', operand: topic },
];
const byNarrow = (who: string, params: Record<string, unknown>) =>
  t.as(who).post('/messages/flags/narrow', {
    anchor: 'oldest',
    num_before: 0,
    num_after: 100,
    narrow: [],
    op: 'add',
    flag: 'read',
    ...params,
  });

async function sendThree(topic: string): Promise<number[]> {
  const ids: number[] = [];
  for (const text of ['one', 'two', 'three']) ids.push(await sendToChannel(t, 'othello', 'Denmark', topic, text));
  return ids;
}

async function unreadIds(who: string): Promise<number[]> {
  const r = await t.as(who).get('/messages', {
    anchor: 'oldest',
    num_after: 1000,
    narrow: JSON.stringify([{ operator: 'is', operand: 'unread' }]),
  });
  return r.body.messages.map((m: { id: number }) => m.id);
}

describe('POST /messages/flags/narrow', () => {
  it("changes the flag on the narrow's window and says what it processed", async () => {
    const ids = await sendThree('bulk');
    const q = await registerQueue(t, 'hamlet', ['update_message_flags']);
    const r = await byNarrow('hamlet', { narrow: topicNarrow('Denmark', 'bulk') });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      processed_count: 3,
      updated_count: 3,
      first_processed_id: ids[0],
      last_processed_id: ids[2],
      found_oldest: true,
      found_newest: true,
    });
    for (const id of ids) expect((await readMessage(t, 'hamlet', id)).flags).toEqual(['read']);
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: ids, all: false, id: 0 },
    ]);
    // Again: nothing left to change.
    const again = await byNarrow('hamlet', { narrow: topicNarrow('Denmark', 'bulk') });
    expect(again.body).toMatchObject({ processed_count: 3, updated_count: 0 });
  });

  it('takes the window around the anchor, and marks unread with the details clients need', async () => {
    const ids = await sendThree('window');
    const r = await byNarrow('hamlet', {
      anchor: String(ids[1]),
      num_before: 1,
      num_after: 0,
      narrow: topicNarrow('Denmark', 'window'),
      flag: 'starred',
    });
    expect(r.body).toMatchObject({
      processed_count: 2,
      updated_count: 2,
      first_processed_id: ids[0],
      last_processed_id: ids[1],
      found_newest: false,
    });
    expect((await readMessage(t, 'hamlet', ids[2])).flags).toEqual([]);
    expect((await readMessage(t, 'hamlet', ids[1])).flags).toEqual(['starred']);
    const excluded = await byNarrow('hamlet', {
      anchor: String(ids[1]),
      num_after: 5,
      include_anchor: false,
      narrow: topicNarrow('Denmark', 'window'),
      flag: 'starred',
    });
    expect(excluded.body).toMatchObject({ processed_count: 1, first_processed_id: ids[2], last_processed_id: ids[2] });

    await byNarrow('hamlet', { narrow: topicNarrow('Denmark', 'window') });
    const q = await registerQueue(t, 'hamlet', ['update_message_flags']);
    const unread = await byNarrow('hamlet', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: topicNarrow('Denmark', 'window'),
      op: 'remove',
    });
    expect(unread.body).toMatchObject({
      processed_count: 1,
      updated_count: 1,
      ignored_because_not_subscribed_channels: [],
    });
    const [event] = await eventsOf(t, 'hamlet', q);
    expect(event.message_details).toEqual({
      [ids[2]]: { type: 'stream', stream_id: streamId(t, 'Denmark'), topic: 'window', unmuted_stream_msg: true },
    });
    expect(await unreadIds('hamlet')).toContain(ids[2]);
  });

  it('leaves read the messages of channels the user is not subscribed to, and says which', async () => {
    // Othello left Rome; its history is public to him.
    const r = await byNarrow('othello', { narrow: [{ operator: 'channel', operand: 'Rome' }], op: 'remove' });
    expect(r.status).toBe(200);
    expect(r.body.processed_count).toBeGreaterThan(0);
    expect(r.body).toMatchObject({ updated_count: 0, ignored_because_not_subscribed_channels: [streamId(t, 'Rome')] });
  });

  it('answers without ignored_because_not_subscribed_channels before FL 355', async () => {
    const old = await startTestServer({ featureLevel: 354 });
    try {
      const r = await old.as('othello').post('/messages/flags/narrow', {
        anchor: 'oldest',
        num_before: 0,
        num_after: 10,
        narrow: [{ operator: 'channel', operand: 'Rome' }],
        op: 'remove',
        flag: 'read',
      });
      expect(r.status).toBe(200);
      expect(r.body).not.toHaveProperty('ignored_because_not_subscribed_channels');
    } finally {
      await old.close();
    }
  });

  it("refuses bad anchors, ranges, flags and narrows in the real server's words", async () => {
    expect((await byNarrow('hamlet', { anchor: 'bogus' })).body).toEqual(error('BAD_REQUEST', 'Invalid anchor'));
    expect(
      (await byNarrow('hamlet', { anchor: '5', num_before: 2, num_after: 2, include_anchor: false })).body,
    ).toEqual(error('BAD_REQUEST', 'The anchor can only be excluded at an end of the range'));
    expect((await byNarrow('hamlet', { flag: 'mentioned' })).body).toEqual(
      error('BAD_REQUEST', "Flag not editable: 'mentioned'"),
    );
    expect((await byNarrow('hamlet', { narrow: [{ operator: 'bogus', operand: 'x' }] })).body).toEqual(
      error('BAD_NARROW', 'Invalid narrow operator: unknown operator bogus', { desc: 'unknown operator bogus' }),
    );
    const missing = await t
      .as('hamlet')
      .post('/messages/flags/narrow', { num_before: 0, num_after: 1, narrow: [], op: 'add', flag: 'read' });
    expect(missing.body).toEqual(
      error('REQUEST_VARIABLE_MISSING', "Missing 'anchor' argument", { var_name: 'anchor' }),
    );
    expect((await byNarrow('hamlet', { num_after: -1 })).status).toBe(400);
  });
});

describe('the deprecated mark-as-read operations', () => {
  it('POST /mark_all_as_read marks everything read and tells clients to reload', async () => {
    await sendThree('all');
    expect((await unreadIds('hamlet')).length).toBeGreaterThan(0);
    const q = await registerQueue(t, 'hamlet', ['update_message_flags']);
    const r = await t.as('hamlet').post('/mark_all_as_read');
    expect(r.body).toEqual({ result: 'success', msg: '', complete: true });
    expect(await unreadIds('hamlet')).toEqual([]);
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true, id: 0 },
    ]);
  });

  it('POST /mark_stream_as_read marks one channel; an event only when something changed', async () => {
    const denmark = await sendThree('a');
    const verona = await sendToChannel(t, 'othello', 'Verona', 'b', 'elsewhere');
    const q = await registerQueue(t, 'hamlet', ['update_message_flags']);
    expect((await t.as('hamlet').post('/mark_stream_as_read', { stream_id: streamId(t, 'Denmark') })).body).toEqual({
      result: 'success',
      msg: '',
    });
    const unread = await unreadIds('hamlet');
    for (const id of denmark) expect(unread).not.toContain(id);
    expect(unread).toContain(verona);
    expect((await t.as('hamlet').post('/mark_stream_as_read', { stream_id: streamId(t, 'Denmark') })).status).toBe(200);
    const events = await eventsOf(t, 'hamlet', q);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ flag: 'read', op: 'add', all: false });
    expect(events[0].messages).toEqual(expect.arrayContaining(denmark));
  });

  it('POST /mark_stream_as_read refuses channels the user cannot read', async () => {
    expect((await t.as('hamlet').post('/mark_stream_as_read', { stream_id: 99999 })).body).toEqual(
      error('BAD_REQUEST', 'Invalid channel ID'),
    );
    // A guest reads only the channels he is subscribed to.
    expect((await t.as('polonius').post('/mark_stream_as_read', { stream_id: streamId(t, 'Venice') })).body).toEqual(
      error('BAD_REQUEST', 'Invalid channel ID'),
    );
  });

  it('POST /mark_topic_as_read marks one topic (without case), and refuses a topic the user has no messages in', async () => {
    const topic = await sendThree('Lunch plans');
    const other = await sendToChannel(t, 'othello', 'Denmark', 'dinner', 'later');
    const q = await registerQueue(t, 'hamlet', ['update_message_flags']);
    const r = await t
      .as('hamlet')
      .post('/mark_topic_as_read', { stream_id: streamId(t, 'Denmark'), topic_name: 'lunch PLANS' });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const unread = await unreadIds('hamlet');
    for (const id of topic) expect(unread).not.toContain(id);
    expect(unread).toContain(other);
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: topic, all: false, id: 0 },
    ]);
    expect(
      (
        await t
          .as('hamlet')
          .post('/mark_topic_as_read', { stream_id: streamId(t, 'Denmark'), topic_name: 'no such thing' })
      ).body,
    ).toEqual(error('BAD_REQUEST', "No such topic 'no such thing'"));
    expect((await t.as('hamlet').post('/mark_topic_as_read', { stream_id: streamId(t, 'Denmark') })).body).toEqual(
      error('REQUEST_VARIABLE_MISSING', "Missing 'topic_name' argument", { var_name: 'topic_name' }),
    );
  });
});
