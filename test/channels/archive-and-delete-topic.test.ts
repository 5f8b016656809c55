// DELETE /streams/{id} (archive) and POST /streams/{id}/delete_topic: who may, what an archived
// channel still allows, the state read back and the events other users' queues get.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';

let t: TestServer;
beforeEach(async () => { t = await startTestServer(); });
afterEach(async () => { await t.close(); });

const ok = { result: 'success', msg: '' };
const send = (as: string, to: string, topic: string, content = 'hi') => t.as(as).post('/messages', { type: 'stream', to, topic, content });

describe('archiving a channel', () => {
  it('archives for an administrator; messages stay readable, sending is refused; queues get update or delete', async () => {
    const withCap = await registerQueue(t, 'hamlet', ['stream'], { client_capabilities: { archived_channels: true } });
    const without = await registerQueue(t, 'othello', ['stream']);
    expect((await t.as('hamlet').delete('/streams/4')).body).toEqual(error('BAD_REQUEST', 'You do not have permission to administer this channel.'));
    expect((await t.as('iago').delete('/streams/4')).body).toEqual(ok);
    expect((await t.as('iago').get('/streams/4')).body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
    const history = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: 4 }]) });
    expect(history.body.messages.at(-1)).toMatchObject({ subject: 'channel events', content: expect.stringContaining('has been archived.') });
    expect((await send('hamlet', 'Venice', 'x')).body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect((await t.as('iago').delete('/streams/4')).body).toEqual(error('BAD_REQUEST', 'Channel is already deactivated'));
    expect(await eventsOf(t, 'hamlet', withCap)).toEqual([expect.objectContaining({ type: 'stream', op: 'update', property: 'is_archived', value: true, stream_id: 4 })]);
    expect(await eventsOf(t, 'othello', without)).toEqual([expect.objectContaining({ type: 'stream', op: 'delete', stream_ids: [4] })]);
  });
});

describe('deleting a topic', () => {
  it('deletes every message of the topic for an administrator, in batches of 100, with delete_message events', async () => {
    for (let i = 0; i < 101; i++) await send('othello', 'Denmark', 'bulk', `m${i}`);
    const queue = await registerQueue(t, 'hamlet', ['delete_message'], { client_capabilities: { bulk_message_deletion: true } });
    expect((await t.as('hamlet').post('/streams/1/delete_topic', { topic_name: 'bulk' })).body)
      .toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
    expect((await t.as('iago').post('/streams/1/delete_topic', { topic_name: 'BULK' })).body).toEqual({ ...ok, complete: true });
    const left = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: 1 }, { operator: 'topic', operand: 'bulk' }]) });
    expect(left.body.messages).toEqual([]);
    const events = await eventsOf(t, 'hamlet', queue);
    expect(events.map((e) => e.message_ids.length)).toEqual([100, 1]);
    expect(events[0]).toMatchObject({ type: 'delete_message', message_type: 'stream', stream_id: 1, topic: 'bulk' });
  });

  it('refuses archived and unknown channels', async () => {
    expect((await t.as('iago').post('/streams/999/delete_topic', { topic_name: 'x' })).body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
    await t.as('iago').delete('/streams/5');
    expect((await t.as('iago').post('/streams/5/delete_topic', { topic_name: 'x' })).body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
  });
});
