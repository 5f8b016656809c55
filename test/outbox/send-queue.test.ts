// The notifications of a message are built after the sender's answer, as the real server's queue
// workers build them: the send queue's order, bound and failures; a sent message's pushes and
// emails waiting for their turn (and dropped when the message was read or deleted first, as the
// real worker drops them); the readers and the control API's settle call seeing everything sent.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SendQueue } from '../../src/domain/outbox/send-queue.js';
import { outboxOf } from '../../src/domain/outbox/outbox.js';
import { sendMessage } from '../../src/domain/messages/send.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ControlClient } from '../../src/control/client.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the send queue', () => {
  it('runs jobs after the current callbacks, in the order queued (jobs a job queues after them)', async () => {
    const queue = new SendQueue();
    const ran: string[] = [];
    queue.defer(() => {
      ran.push('a');
      queue.defer(() => ran.push('c'));
    });
    queue.defer(() => ran.push('b'));
    expect(ran).toEqual([]);
    expect(queue.pending).toBe(2);
    await nextTurn();
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(queue.pending).toBe(0);
  });

  it('runs everything at once on flush, and forgets everything on clear', async () => {
    const queue = new SendQueue();
    const ran: number[] = [];
    for (let i = 0; i < 3; i++) queue.defer(() => ran.push(i));
    queue.flush();
    expect(ran).toEqual([0, 1, 2]);
    queue.defer(() => ran.push(9));
    queue.clear();
    await nextTurn();
    expect(ran).toEqual([0, 1, 2]);
  });

  it('logs a failing job and runs the next', async () => {
    const queue = new SendQueue();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ran: string[] = [];
    queue.defer(() => {
      throw new Error('boom');
    });
    queue.defer(() => ran.push('next'));
    await nextTurn();
    expect(ran).toEqual(['next']);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('a queued notification failed: Error: boom'));
    error.mockRestore();
  });

  it('runs the oldest job at once when 10,000 wait, so that nothing is lost', () => {
    const queue = new SendQueue();
    const ran: number[] = [];
    for (let i = 0; i < 10_001; i++) queue.defer(() => ran.push(i));
    expect(ran).toEqual([0]);
    expect(queue.pending).toBe(10_000);
    queue.flush();
    expect(ran).toHaveLength(10_001);
    expect(ran[10_000]).toBe(10_000);
  });
});

describe("a message's notifications", () => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer();
    await t.as('othello').post('/users/me/android_gcm_reg_id', { token: 'fcm-token-othello' });
  });
  afterEach(async () => {
    await t.close();
  });
  const world = () => t.server.world;
  const outbox = () => outboxOf(world().store);
  const dm = (content: string) =>
    sendMessage(world(), t.user('iago'), { type: 'direct', to: [t.user('othello').user_id], content, client: 'test' })
      .message.id;

  it('are built after the send, in the order the messages were sent, at the time they were sent', async () => {
    const sentAt = world().clock.nowMs();
    const first = dm('first');
    const second = dm('second');
    // Nothing built yet: two jobs wait for the end of this turn.
    expect(outbox().queue.pending).toBe(2);
    await nextTurn();
    expect(outbox().queue.pending).toBe(0);
    const items = outbox()
      .query({ kind: 'push', user_id: t.user('othello').user_id })
      .items.reverse();
    expect(items.map((i) => i.kind === 'push' && i.message_ids)).toEqual([[first], [second]]);
    expect(items.every((i) => i.time >= sentAt && i.time <= world().clock.nowMs())).toBe(true);
  });

  it('are not sent for a message read or deleted before its turn came', async () => {
    const read = dm('read at once');
    const deleted = dm('deleted at once');
    const othello = String(t.user('othello').user_id);
    const row = world().store.messages.get(read)!;
    world().store.messages.update(row, { flags: { ...row.flags, [othello]: [...row.flags[othello], 'read'] } });
    world().store.messages.remove(world().store.messages.get(deleted)!);
    const kept = dm('kept');
    const items = outbox().query({ kind: 'push' }).items;
    expect(items.map((i) => i.kind === 'push' && [i.event, i.message_ids])).toEqual([['message', [kept]]]);
  });

  it('are all recorded when the control API says the outgoing work has settled', async () => {
    for (let i = 0; i < 50; i++) dm(`message ${i}`);
    const control = new ControlClient(t.base);
    expect(await control.outgoing.settle()).toMatchObject({ settled: true, pending: 0 });
    expect(outbox().queue.pending).toBe(0);
    expect((await control.outbox.list({ kind: 'push' })).count).toBe(50);
  });
});
