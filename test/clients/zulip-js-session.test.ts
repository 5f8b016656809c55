// A whole client session with the official JavaScript client: log in with a password, register,
// read the newest messages of a channel, send, edit, react, mark read, star, unsubscribe and
// subscribe again, list users, channels and topics — and see each change arrive as an event on a
// second user's queue (flag changes, which the real server tells only their owner, on the
// actor's own queue). Every response also passes response validation (the contract guard).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { zulipAs } from '../helpers/zulip-js.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ longpollTimeoutSeconds: 1 });
});
afterAll(async () => {
  await t.close();
});

type Event = Record<string, any> & { id: number; type: string };

/** Reads a queue with dont_block and returns the events not seen yet. */
function reader(z: any, queueId: string) {
  let last = -1;
  return async (): Promise<Event[]> => {
    const r = await z.events.retrieve({ queue_id: queueId, last_event_id: last, dont_block: true });
    expect(r.result).toBe('success');
    const events = (r.events as Event[]).filter((e) => e.type !== 'heartbeat');
    if (r.events.length) last = r.events[r.events.length - 1].id;
    return events;
  };
}

describe('a zulip-js client session against the mock', () => {
  it('works end to end and every change reaches the other user', async () => {
    // Log in with a password: zulip-js fetches the API key itself.
    const hamlet = await zulipAs(t, 'hamlet', 'password');
    expect(hamlet.config.apiKey).toBe(t.user('hamlet').api_key);
    const othello = await zulipAs(t, 'othello');

    const mine = await hamlet.queues.register({ event_types: ['message', 'update_message_flags'] });
    expect(mine).toMatchObject({
      result: 'success',
      queue_id: expect.any(String),
      zulip_feature_level: expect.any(Number),
    });
    const theirs = await othello.queues.register({
      event_types: ['message', 'update_message', 'reaction', 'subscription'],
    });
    const othelloEvents = reader(othello, theirs.queue_id);
    const hamletEvents = reader(hamlet, mine.queue_id);

    // The newest messages of Denmark.
    const newest = await hamlet.messages.retrieve({
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'Denmark' }],
    });
    expect(newest.result).toBe('success');
    expect(newest.found_newest).toBe(true);
    expect(newest.messages.length).toBeGreaterThan(0);
    expect(newest.messages.every((m: any) => m.display_recipient === 'Denmark')).toBe(true);

    // Send.
    const sent = await hamlet.messages.send({
      type: 'stream',
      to: 'Denmark',
      topic: 'session',
      content: 'Hello from **zulip-js**',
    });
    expect(sent.result).toBe('success');
    const id = sent.id;
    const [arrived] = (await othelloEvents()).filter((e) => e.type === 'message');
    expect(arrived.message).toMatchObject({ id, sender_email: 'hamlet@zulip.com', subject: 'session' });

    // Edit.
    const edited = await hamlet.messages.update({ message_id: id, content: 'Edited from zulip-js' });
    expect(edited.result).toBe('success');
    const update = (await othelloEvents()).find((e) => e.type === 'update_message');
    expect(update).toMatchObject({ message_id: id, content: 'Edited from zulip-js' });

    // React.
    const reacted = await hamlet.reactions.add({ message_id: id, emoji_name: 'thumbs_up' });
    expect(reacted.result).toBe('success');
    const reaction = (await othelloEvents()).find((e) => e.type === 'reaction');
    expect(reaction).toMatchObject({
      op: 'add',
      message_id: id,
      emoji_name: 'thumbs_up',
      user_id: t.user('hamlet').user_id,
    });

    // Mark read and star: flag events go to the user whose flags changed.
    await hamletEvents();
    expect((await hamlet.messages.flags.add({ messages: [id], flag: 'read' })).result).toBe('success');
    expect((await hamlet.messages.flags.add({ messages: [id], flag: 'starred' })).result).toBe('success');
    const flags = (await hamletEvents()).filter((e) => e.type === 'update_message_flags');
    expect(flags.map((e) => [e.op, e.flag, e.messages])).toEqual([
      ['add', 'read', [id]],
      ['add', 'starred', [id]],
    ]);
    const starred = await hamlet.messages.retrieve({
      anchor: id,
      num_before: 0,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'starred' }],
    });
    expect(starred.messages.map((m: any) => m.id)).toEqual([id]);

    // Unsubscribe and subscribe again: Othello, a subscriber of Scotland, sees both.
    const left = await hamlet.users.me.subscriptions.remove({ subscriptions: JSON.stringify(['Scotland']) });
    expect(left).toMatchObject({ result: 'success', removed: ['Scotland'], not_removed: [] });
    const joined = await hamlet.users.me.subscriptions.add({ subscriptions: JSON.stringify([{ name: 'Scotland' }]) });
    expect(joined.result).toBe('success');
    expect(joined.subscribed).toEqual({ [String(t.user('hamlet').user_id)]: ['Scotland'] });
    const peers = (await othelloEvents()).filter((e) => e.type === 'subscription').map((e) => [e.op, e.user_ids]);
    expect(peers).toEqual([
      ['peer_remove', [t.user('hamlet').user_id]],
      ['peer_add', [t.user('hamlet').user_id]],
    ]);

    // Lists: users, channels, topics.
    const users = await hamlet.users.retrieve();
    expect(users.members.map((u: any) => u.email)).toEqual(
      expect.arrayContaining(['iago@zulip.com', 'othello@zulip.com']),
    );
    const streams = await hamlet.streams.retrieve();
    expect(streams.streams.map((s: any) => s.name)).toEqual(expect.arrayContaining(['Denmark', 'Verona']));
    const denmark = streams.streams.find((s: any) => s.name === 'Denmark');
    const topics = await hamlet.streams.topics.retrieve({ stream_id: denmark.stream_id });
    expect(topics.topics[0]).toMatchObject({ name: 'session', max_id: id });

    // Done: the queue goes away, and asking for it again is the real server's error.
    expect((await hamlet.queues.deregister({ queue_id: mine.queue_id })).result).toBe('success');
    const gone = await hamlet.events.retrieve({ queue_id: mine.queue_id, last_event_id: -1, dont_block: true });
    expect(gone).toMatchObject({ result: 'error', code: 'BAD_EVENT_QUEUE_ID', queue_id: mine.queue_id });
  });
});
