// PATCH /messages/{message_id}: content edits, topic and channel moves, resolving, permissions,
// time limits, events and the notification bot's notices.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { stream } from '../helpers/fixture-rows.js';
import { sendMessage, sendToChannel } from '../helpers/messages.js';
import { readMessage } from '../helpers/read-back.js';
import { ControlClient } from '../../src/control/client.js';
import { systemGroupId } from '../../src/domain/group-settings/membership.js';

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

const store = () => t.server.world.store;
const patch = (who: string, id: number, params: Record<string, unknown>) => t.as(who).patch(`/messages/${id}`, params);
const group = (name: string) => systemGroupId(store(), name);
const DAY = 86400 * 1000;
/** The messages of a channel topic, as stored. */
const inTopic = (channel: string, topic: string) =>
  store().messages.filter((m) => m.stream_id === stream(t, channel).stream_id && m.topic === topic);

describe('editing content', () => {
  it("the sender edits: content, rendering, edit history and an update_message event with each user's flags", async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'edits', 'first draft');
    const q = await registerQueue(t, 'othello', ['update_message']);
    t.server.clock.freeze();
    const r = await patch('hamlet', id, { content: 'second **draft**' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', detached_uploads: [] });
    const now = t.server.clock.now();
    const m = await readMessage(t, 'hamlet', id);
    expect(m).toMatchObject({ content: 'second **draft**', last_edit_timestamp: now });
    expect(m.edit_history).toEqual([
      {
        user_id: t.user('hamlet').user_id,
        timestamp: now,
        prev_content: 'first draft',
        prev_rendered_content: '<p>first draft</p>',
      },
    ]);
    const [event] = await eventsOf(t, 'othello', q);
    expect(event).toMatchObject({
      type: 'update_message',
      user_id: t.user('hamlet').user_id,
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      edit_timestamp: now,
      orig_content: 'first draft',
      orig_rendered_content: '<p>first draft</p>',
      content: 'second **draft**',
      rendered_content: '<p>second <strong>draft</strong></p>',
      is_me_message: false,
      stream_id: stream(t, 'Denmark').stream_id,
      stream_name: 'Denmark',
      flags: [],
    });
    expect(event).not.toHaveProperty('propagate_mode');
  });

  it('updates mention flags and turns empty content into (deleted)', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'edits', 'hello');
    await patch('hamlet', id, { content: 'hello @**Othello, the Moor of Venice**' });
    expect(store().messages.get(id)!.flags[String(t.user('othello').user_id)]).toContain('mentioned');
    await patch('hamlet', id, { content: '   ' });
    expect(store().messages.get(id)!.content).toBe('(deleted)');
    expect(store().messages.get(id)!.flags[String(t.user('othello').user_id)]).not.toContain('mentioned');
  });

  it('refuses other users, an expired edit window and an organization without editing', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'edits', 'mine');
    const other = await patch('iago', id, { content: 'theirs' });
    expect(other.status).toBe(400);
    expect(other.body).toEqual(error('BAD_REQUEST', "You don't have permission to edit this message"));
    store().updateRealm({ allow_message_editing: false });
    expect((await patch('hamlet', id, { content: 'x' })).body).toEqual(
      error('BAD_REQUEST', 'Your organization has turned off message editing'),
    );
    store().updateRealm({ allow_message_editing: true });
    t.server.clock.advance((600 + 21) * 1000);
    expect((await patch('hamlet', id, { content: 'late' })).body).toEqual(
      error('BAD_REQUEST', 'The time limit for editing this message has passed'),
    );
    expect(store().messages.get(id)!.content).toBe('mine');
  });

  it('checks the request: nothing to change, direct message topics and channels, propagate_mode, content with channel, sha256', async () => {
    const dm = await sendMessage(t, 'hamlet', { type: 'direct', to: [t.user('othello').user_id], content: 'psst' });
    expect((await patch('hamlet', dm, {})).body).toEqual(error('BAD_REQUEST', 'Nothing to change'));
    expect((await patch('hamlet', dm, { topic: 'x' })).body).toEqual(
      error('BAD_REQUEST', 'Direct messages cannot have topics.'),
    );
    expect((await patch('hamlet', dm, { stream_id: 1 })).body).toEqual(
      error('BAD_REQUEST', 'Direct messages cannot be moved to channels.'),
    );
    expect((await patch('hamlet', dm, { content: 'psst!' })).status).toBe(200);
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'checks', 'text');
    expect((await patch('hamlet', id, { content: 'y', propagate_mode: 'change_all' })).body).toEqual(
      error('BAD_REQUEST', 'Invalid propagate_mode without topic edit'),
    );
    expect((await patch('hamlet', id, { content: 'y', stream_id: stream(t, 'Verona').stream_id })).body).toEqual(
      error('BAD_REQUEST', 'Cannot change message content while changing channel'),
    );
    expect((await patch('hamlet', id, { content: 'y', prev_content_sha256: 'abc' })).body).toEqual(
      error('EXPECTATION_MISMATCH', "'prev_content_sha256' value does not match the expected value."),
    );
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update('text').digest('hex');
    expect((await patch('hamlet', id, { content: 'y', prev_content_sha256: sha })).status).toBe(200);
    expect((await patch('hamlet', 99999, { content: 'y' })).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
  });
});

describe('moving to another topic', () => {
  it('propagate_mode chooses the messages; the new topic gets a notice; moves are recorded', async () => {
    const a = await sendToChannel(t, 'hamlet', 'Denmark', 'old', 'one');
    const b = await sendToChannel(t, 'othello', 'Denmark', 'old', 'two');
    const c = await sendToChannel(t, 'hamlet', 'Denmark', 'old', 'three');
    expect((await patch('hamlet', b, { topic: 'later', propagate_mode: 'change_later' })).status).toBe(200);
    expect(inTopic('Denmark', 'old').map((m) => m.id)).toEqual([a]);
    const later = inTopic('Denmark', 'later');
    expect(later.slice(0, 2).map((m) => m.id)).toEqual([b, c]);
    expect(later[2]).toMatchObject({
      sender_id: store().realm.notification_bot_id,
      content: `2 messages were moved here from #**Denmark>old** by @_**King Hamlet|${t.user('hamlet').user_id}**.`,
    });
    const moved = await readMessage(t, 'hamlet', b);
    expect(moved.last_moved_timestamp).toBeTypeOf('number');
    expect(moved).not.toHaveProperty('last_edit_timestamp');
    expect(moved.edit_history[0]).toMatchObject({ prev_topic: 'old', topic: 'later' });

    expect((await patch('hamlet', a, { topic: 'one only' })).status).toBe(200);
    expect(inTopic('Denmark', 'one only').at(-1)!.content).toBe(
      `This topic was moved here from #**Denmark>old** by @_**King Hamlet|${t.user('hamlet').user_id}**.`,
    );
    expect(
      (
        await patch('hamlet', c, {
          topic: 'everything',
          propagate_mode: 'change_all',
          send_notification_to_new_thread: false,
          send_notification_to_old_thread: true,
        })
      ).status,
    ).toBe(200);
    expect(inTopic('Denmark', 'everything').map((m) => m.id)).toEqual([b, c, later[2].id]);
    expect(inTopic('Denmark', 'later')).toHaveLength(1);
    expect(inTopic('Denmark', 'later')[0].content).toMatch(/^This topic was moved to #\*\*Denmark>everything\*\* by/);
  });

  it('sends update_message with the move fields', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'evt', 'x');
    const q = await registerQueue(t, 'othello', ['update_message']);
    await patch('hamlet', id, { topic: 'evt2', send_notification_to_new_thread: false });
    const [event] = await eventsOf(t, 'othello', q);
    expect(event).toMatchObject({
      type: 'update_message',
      message_ids: [id],
      propagate_mode: 'change_one',
      orig_subject: 'evt',
      subject: 'evt2',
      topic_links: [],
      stream_id: 1,
    });
    expect(event).not.toHaveProperty('new_stream_id');
    expect(event).not.toHaveProperty('content');
  });

  it("needs a move permission: the organization's or the channel's", async () => {
    const id = await sendToChannel(t, 'othello', 'Denmark', 'perm', 'x');
    store().updateRealm({ can_move_messages_between_topics_group: group('role:administrators') });
    const refused = await patch('hamlet', id, { topic: 'perm2' });
    expect(refused.body).toEqual(error('BAD_REQUEST', "You don't have permission to edit this message"));
    expect(store().messages.get(id)!.topic).toBe('perm');
    expect((await patch('iago', id, { topic: 'by admin' })).status).toBe(200);
    store().streams.update(stream(t, 'Denmark'), {
      can_move_messages_within_channel_group: { direct_members: [t.user('hamlet').user_id], direct_subgroups: [] },
    });
    expect((await patch('hamlet', id, { topic: 'by channel permission' })).status).toBe(200);
    expect(store().messages.get(id)!.topic).toBe('by channel permission');
  });

  it('members are bound by the move time limit, moderators are not', async () => {
    const id = await sendToChannel(t, 'othello', 'Denmark', 'aging', 'x');
    t.server.clock.advance(8 * DAY);
    expect((await patch('hamlet', id, { topic: 'aged' })).body).toEqual(
      error('BAD_REQUEST', "The time limit for editing this message's topic has passed."),
    );
    expect((await patch('shiva', id, { topic: 'aged' })).status).toBe(200);
  });

  it('change_all needs every message to be movable (MOVE_MESSAGES_TIME_LIMIT_EXCEEDED)', async () => {
    const old = await sendToChannel(t, 'othello', 'Denmark', 'mixed', 'old');
    t.server.clock.advance(8 * DAY);
    const recent = await sendToChannel(t, 'othello', 'Denmark', 'mixed', 'new');
    const r = await patch('hamlet', recent, { topic: 'mixed2', propagate_mode: 'change_all' });
    expect(r.body).toEqual(
      error(
        'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
        'You only have permission to move the 1/2 most recent messages in this topic.',
        {
          first_message_id_allowed_to_move: recent,
          total_messages_in_topic: 2,
          total_messages_allowed_to_move: 1,
        },
      ),
    );
    expect(store().messages.get(old)!.topic).toBe('mixed');
    expect((await patch('hamlet', recent, { topic: 'mixed2', propagate_mode: 'change_later' })).status).toBe(200);
  });

  it('change_all on a message past the limit: the counts from 505 when some are movable, the plain error before', async () => {
    const old = await sendToChannel(t, 'othello', 'Denmark', 'aged topic', 'old');
    t.server.clock.advance(8 * DAY);
    const recent = await sendToChannel(t, 'othello', 'Denmark', 'aged topic', 'new');
    const r = await patch('hamlet', old, { topic: 'moved', propagate_mode: 'change_all' });
    expect(r.body).toEqual(
      error(
        'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
        'You only have permission to move the 1/2 most recent messages in this topic.',
        {
          first_message_id_allowed_to_move: recent,
          total_messages_in_topic: 2,
          total_messages_allowed_to_move: 1,
        },
      ),
    );
    const before = await t
      .as('hamlet', { 'X-Mock-Feature-Level': '504' })
      .patch(`/messages/${old}`, { topic: 'moved', propagate_mode: 'change_all' });
    expect(before.body).toEqual(error('BAD_REQUEST', "The time limit for editing this message's topic has passed."));
    // With nothing of the topic movable any more, the plain error at every level.
    t.server.clock.advance(8 * DAY);
    expect((await patch('hamlet', old, { topic: 'moved', propagate_mode: 'change_all' })).body).toEqual(
      error('BAD_REQUEST', "The time limit for editing this message's topic has passed."),
    );
    expect(store().messages.get(old)!.topic).toBe('aged topic');
  });

  it('follows the destination topics policy and can_create_topic_group', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'pol', 'x');
    store().streams.update(stream(t, 'Denmark'), { topics_policy: 'disable_empty_topic' });
    expect((await patch('hamlet', id, { topic: '' })).body).toEqual(
      error('BAD_REQUEST', 'Sending messages to the general chat is not allowed in this channel.'),
    );
    store().streams.update(stream(t, 'Denmark'), {
      topics_policy: 'inherit',
      can_create_topic_group: group('role:administrators'),
    });
    expect((await patch('hamlet', id, { topic: 'brand new' })).body).toEqual(
      error('BAD_REQUEST', 'You do not have permission to create new topics in this channel.'),
    );
    expect((await patch('hamlet', id, { topic: 'test' })).status).toBe(200);
  });
});

describe('resolving topics', () => {
  it('posts the resolved notice; undoing within a minute deletes it; needs can_resolve_topics_group', async () => {
    const id = await sendToChannel(t, 'othello', 'Denmark', 'bug', 'it is broken');
    expect((await patch('hamlet', id, { topic: '✔ bug', propagate_mode: 'change_all' })).status).toBe(200);
    const resolved = inTopic('Denmark', '✔ bug');
    expect(resolved.map((m) => m.content)).toEqual([
      'it is broken',
      `@_**King Hamlet|${t.user('hamlet').user_id}** has marked this topic as resolved.`,
    ]);
    expect((await patch('hamlet', id, { topic: 'bug', propagate_mode: 'change_all' })).status).toBe(200);
    expect(inTopic('Denmark', 'bug').map((m) => m.content)).toEqual(['it is broken']);
    expect(store().messages.get(resolved[1].id)).toBeUndefined();

    store().updateRealm({ can_resolve_topics_group: group('role:nobody') });
    expect((await patch('hamlet', id, { topic: '✔ bug' })).body).toEqual(
      error('BAD_REQUEST', "You don't have permission to resolve topics in this channel."),
    );
    store().streams.update(stream(t, 'Denmark'), { can_resolve_topics_group: group('role:members') });
    expect((await patch('hamlet', id, { topic: '✔ bug' })).status).toBe(200);
    expect((await patch('hamlet', id, { topic: '✔ general chat' })).body).toEqual(
      error('BAD_REQUEST', 'General chat cannot be marked as resolved'),
    );
  });
});

describe('moving to another channel', () => {
  it('moves with permission; users who lose access get delete_message; breadcrumbs name both places', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'secret', 'for the core team');
    const othelloQ = await registerQueue(t, 'othello', ['update_message', 'delete_message'], {
      client_capabilities: { bulk_message_deletion: true },
    });
    const iagoQ = await registerQueue(t, 'iago', ['update_message', 'delete_message']);
    const core = stream(t, 'core team');
    const r = await patch('hamlet', id, { stream_id: core.stream_id, send_notification_to_old_thread: true });
    expect(r.status).toBe(200);
    expect(store().messages.get(id)).toMatchObject({ stream_id: core.stream_id, topic: 'secret' });
    expect(await readMessage(t, 'othello', id)).toBeUndefined();
    expect(await eventsOf(t, 'othello', othelloQ)).toEqual([
      { type: 'delete_message', message_type: 'stream', message_ids: [id], stream_id: 1, topic: 'secret', id: 0 },
    ]);
    const iagoEvents = await eventsOf(t, 'iago', iagoQ);
    expect(iagoEvents[0]).toMatchObject({
      type: 'update_message',
      new_stream_id: core.stream_id,
      stream_id: 1,
      orig_subject: 'secret',
      propagate_mode: 'change_one',
    });
    expect(iagoEvents[0]).not.toHaveProperty('subject');
    expect(inTopic('core team', 'secret').at(-1)!.content).toBe(
      `This topic was moved here from #**Denmark>secret** by @_**King Hamlet|${t.user('hamlet').user_id}**.`,
    );
    expect(inTopic('Denmark', 'secret').at(-1)!.content).toBe(
      `This topic was moved to #**core team>secret** by @_**King Hamlet|${t.user('hamlet').user_id}**.`,
    );
  });

  it('refuses without permission, to an unknown channel and to a channel one may not post in', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'stay', 'x');
    store().updateRealm({ can_move_messages_between_channels_group: group('role:administrators') });
    expect((await patch('hamlet', id, { stream_id: stream(t, 'Verona').stream_id })).body).toEqual(
      error('BAD_REQUEST', "You don't have permission to move this message"),
    );
    expect((await patch('iago', id, { stream_id: 9999 })).body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
    expect((await patch('iago', id, { stream_id: stream(t, 'Venice').stream_id })).status).toBe(200);
    store().streams.update(stream(t, 'Denmark'), { can_move_messages_out_of_channel_group: group('role:members') });
    const other = await sendToChannel(t, 'hamlet', 'Denmark', 'stay', 'y');
    expect((await patch('hamlet', other, { stream_id: stream(t, 'Venice').stream_id })).body).toEqual(
      error('BAD_REQUEST', 'You do not have permission to post in this channel.'),
    );
    expect((await patch('hamlet', other, { stream_id: stream(t, 'Verona').stream_id })).status).toBe(200);
    store().updateRealm({ can_move_messages_between_channels_group: group('role:members') });
    t.server.clock.advance(8 * DAY);
    expect((await patch('hamlet', other, { stream_id: stream(t, 'Denmark').stream_id })).body).toEqual(
      error('BAD_REQUEST', "The time limit for editing this message's channel has passed"),
    );
  });
});
