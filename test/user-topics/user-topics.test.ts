// POST /user_topics and the deprecated PATCH /users/me/subscriptions/muted_topics. No operation
// of the description lists topic policies, so they are read back from the store.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { watchEvents } from '../helpers/events.js';
import { streamId } from '../helpers/fixture-rows.js';
import { userTopicKey } from '../../src/store/store.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
const policy = (who: string, stream: number, topic: string) =>
  t.server.world.store.userTopics.get(userTopicKey(id(who), stream, topic))?.visibility_policy ?? 0;
const setPolicy = (who: string, stream_id: number, topic: string, visibility_policy: number) =>
  t.as(who).post('/user_topics', { stream_id, topic, visibility_policy });

describe('POST /user_topics', () => {
  it('sets each policy 0-3 on a topic without messages and sends a user_topic event (after the legacy muted_topics)', async () => {
    t.server.clock.freeze();
    const denmark = streamId(t, 'Denmark');
    for (const value of [1, 2, 3, 0]) {
      const events = watchEvents(t);
      const res = await setPolicy('othello', denmark, 'brand new', value);
      expect(res.status).toBe(200);
      expect(policy('othello', denmark, 'brand new')).toBe(value);
      expect(events).toEqual([
        {
          users: [id('othello')],
          event: { type: 'muted_topics', muted_topics: expect.any(Array) },
        },
        {
          users: [id('othello')],
          event: {
            type: 'user_topic',
            stream_id: denmark,
            topic_name: 'brand new',
            last_updated: t.server.clock.now(),
            visibility_policy: value,
          },
        },
      ]);
    }
    expect(t.server.world.store.userTopics.get(userTopicKey(id('othello'), denmark, 'brand new'))).toBeUndefined();
  });

  it('works on topics with messages, matching their name case-insensitively', async () => {
    const denmark = streamId(t, 'Denmark');
    expect(policy('hamlet', denmark, 'Copenhagen')).toBe(1);
    expect((await setPolicy('hamlet', denmark, 'copenhagen', 3)).status).toBe(200);
    expect(policy('hamlet', denmark, 'Copenhagen')).toBe(3);
  });

  it('reads the empty-topic display name as the empty topic', async () => {
    const verona = streamId(t, 'Verona');
    expect((await setPolicy('hamlet', verona, 'general chat', 1)).status).toBe(200);
    expect(policy('hamlet', verona, '')).toBe(1);
    expect(policy('hamlet', verona, 'general chat')).toBe(0);
  });

  it('needs access to the channel to set a policy, but not to remove one', async () => {
    const core = streamId(t, 'core team');
    expectError(await setPolicy('hamlet', 999, 'x', 1), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await setPolicy('othello', core, 'planning', 1), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(
      await setPolicy('polonius', streamId(t, 'Denmark'), 'test', 1),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expect((await setPolicy('othello', core, 'planning', 0)).status).toBe(200);
    expectError(await setPolicy('othello', 999, 'planning', 0), 400, 'BAD_REQUEST', 'Invalid channel ID');
  });

  it('limits the topic to max_topic_length and the policy to 0-3', async () => {
    const denmark = streamId(t, 'Denmark');
    expectError(
      await setPolicy('hamlet', denmark, 't'.repeat(61), 1),
      400,
      'BAD_REQUEST',
      'topic is too long (limit: 60 characters)',
    );
    expect((await setPolicy('hamlet', denmark, 't'.repeat(60), 1)).status).toBe(200);
    const bad = await setPolicy('hamlet', denmark, 'x', 4);
    expect(bad.status).toBe(400);
    expect(policy('hamlet', denmark, 'x')).toBe(0);
  });
});

describe('PATCH /users/me/subscriptions/muted_topics (deprecated)', () => {
  const mute = (params: Record<string, unknown>, who = 'othello') =>
    t.as(who).patch('/users/me/subscriptions/muted_topics', params);

  it('mutes and unmutes by channel ID; repeating either is not an error', async () => {
    const denmark = streamId(t, 'Denmark');
    const events = watchEvents(t);
    expect((await mute({ stream_id: denmark, topic: 'quiet', op: 'add' })).status).toBe(200);
    expect(policy('othello', denmark, 'quiet')).toBe(1);
    expect(events.map((e) => e.event.type)).toEqual(['muted_topics', 'user_topic']);
    expect(events[1].event).toMatchObject({ type: 'user_topic', topic_name: 'quiet', visibility_policy: 1 });
    expect((await mute({ stream_id: denmark, topic: 'quiet', op: 'add' })).status).toBe(200);
    expect(policy('othello', denmark, 'quiet')).toBe(1);
    expect((await mute({ stream_id: denmark, topic: 'quiet', op: 'remove' })).status).toBe(200);
    expect(policy('othello', denmark, 'quiet')).toBe(0);
    expect((await mute({ stream_id: denmark, topic: 'quiet', op: 'remove' })).status).toBe(200);
  });

  it('accepts the channel name instead of its ID', async () => {
    expect((await mute({ stream: 'denmark', topic: 'by name', op: 'add' })).status).toBe(200);
    expect(policy('othello', streamId(t, 'Denmark'), 'by name')).toBe(1);
    expect((await mute({ stream: 'Denmark', topic: 'by name', op: 'remove' })).status).toBe(200);
    expect(policy('othello', streamId(t, 'Denmark'), 'by name')).toBe(0);
  });

  it('wants exactly one of stream_id and stream', async () => {
    const both = await mute({ stream_id: streamId(t, 'Denmark'), stream: 'Denmark', topic: 'x', op: 'add' });
    expectError(both, 400, 'BAD_REQUEST', 'Unsupported parameter combination: stream_id, stream');
    expect(both.body.parameters).toBe('stream_id, stream');
    expectError(await mute({ topic: 'x', op: 'add' }), 400, 'BAD_REQUEST', "Missing 'stream_id' argument");
  });

  it("answers the server's errors for unknown or inaccessible channels", async () => {
    expectError(await mute({ stream_id: 999, topic: 'x', op: 'add' }), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(
      await mute({ stream: 'nowhere', topic: 'x', op: 'add' }),
      400,
      'BAD_REQUEST',
      "Invalid channel name 'nowhere'",
    );
    expectError(
      await mute({ stream: 'core team', topic: 'x', op: 'add' }),
      400,
      'BAD_REQUEST',
      "Invalid channel name 'core team'",
    );
    expectError(await mute({ stream_id: 999, topic: 'x', op: 'remove' }), 400, 'BAD_REQUEST', 'Topic is not muted');
    expectError(await mute({ stream: 'nowhere', topic: 'x', op: 'remove' }), 400, 'BAD_REQUEST', 'Topic is not muted');
  });
});
