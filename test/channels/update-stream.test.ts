// PATCH /streams/{stream_id}: who may change what, each parameter's rules, read back through
// GET /users/me/subscriptions, and the stream/update events.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error, expectError } from '../helpers/errors.js';
import { watchEvents } from '../helpers/events.js';
import { folderId, groupId, streamId } from '../helpers/fixture-rows.js';
import { subscriptionOf } from '../helpers/read-back.js';
import { subscriptionKey } from '../../src/store/store.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
const store = () => t.server.world.store;
const rome = () => streamId(t, 'Rome'); // hamlet is in its can_administer_channel_group
const denmark = () => streamId(t, 'Denmark');

/** A private channel only desdemona is subscribed to (iago, an administrator, is not). */
async function secretChannel(extra: Record<string, unknown> = {}): Promise<number> {
  const res = await t
    .as('desdemona')
    .post('/channels/create', { name: 'Secret', invite_only: true, subscribers: [id('desdemona')], ...extra });
  expect(res.status).toBe(200);
  return res.body.id;
}

describe('PATCH /streams/{stream_id}: access', () => {
  it('answers Invalid channel ID for an unknown channel or one the caller cannot see', async () => {
    expectError(
      await t.as('iago').patch('/streams/999', { description: 'x' }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await t.as('othello').patch(`/streams/${streamId(t, 'core team')}`, { description: 'x' }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
  });

  it('tells a user who can read the channel but not administer it so', async () => {
    expectError(
      await t.as('othello').patch(`/streams/${rome()}`, { description: 'x' }),
      400,
      'BAD_REQUEST',
      'You do not have permission to administer this channel.',
    );
    expectError(
      await t.as('polonius').patch(`/streams/${streamId(t, 'Verona')}`, { description: 'x' }),
      400,
      'BAD_REQUEST',
      'You do not have permission to administer this channel.',
    );
  });

  it('lets members of can_administer_channel_group and administrators change a channel', async () => {
    expect((await t.as('hamlet').patch(`/streams/${rome()}`, { description: 'By Hamlet' })).status).toBe(200);
    expect((await t.as('iago').patch(`/streams/${denmark()}`, { description: 'By Iago' })).status).toBe(200);
    expect((await subscriptionOf(t.as('hamlet'), rome())).description).toBe('By Hamlet');
    expect((await subscriptionOf(t.as('hamlet'), denmark())).description).toBe('By Iago');
  });
});

describe('PATCH /streams/{stream_id}: name and description', () => {
  it('updates the description and its rendering, one line, within the limit', async () => {
    const events = watchEvents(t);
    expect((await t.as('hamlet').patch(`/streams/${rome()}`, { description: 'All roads\nlead **here**' })).status).toBe(
      200,
    );
    const sub = await subscriptionOf(t.as('hamlet'), rome());
    expect(sub.description).toBe('All roads lead **here**');
    expect(sub.rendered_description).toBe('<p>All roads lead <strong>here</strong></p>');
    const update = events.find((e) => e.event.property === 'description')!;
    expect(update.event).toEqual({
      type: 'stream',
      op: 'update',
      property: 'description',
      value: 'All roads lead **here**',
      rendered_description: '<p>All roads lead <strong>here</strong></p>',
      stream_id: rome(),
      name: 'Rome',
    });
    expect(update.users).toContain(id('othello'));
    expectError(
      await t.as('hamlet').patch(`/streams/${rome()}`, { description: 'd'.repeat(1025) }),
      400,
      'BAD_REQUEST',
      'description is too long (limit: 1024 characters)',
    );
  });

  it('renames, allowing a change of case but not a name in use', async () => {
    const romeId = rome();
    const events = watchEvents(t);
    expect((await t.as('hamlet').patch(`/streams/${romeId}`, { new_name: ' Roma ' })).status).toBe(200);
    expect((await subscriptionOf(t.as('hamlet'), romeId)).name).toBe('Roma');
    expect(events.find((e) => e.event.property === 'name')!.event).toMatchObject({
      value: 'Roma',
      name: 'Rome',
      stream_id: romeId,
    });
    expect((await t.as('hamlet').patch(`/streams/${romeId}`, { new_name: 'ROMA' })).status).toBe(200);
    expect((await subscriptionOf(t.as('hamlet'), romeId)).name).toBe('ROMA');

    expectError(
      await t.as('hamlet').patch(`/streams/${romeId}`, { new_name: 'ROMA' }),
      400,
      'BAD_REQUEST',
      'Channel already has that name.',
    );
    const taken = await t.as('hamlet').patch(`/streams/${romeId}`, { new_name: 'denmark' });
    expectError(taken, 409, 'CHANNEL_ALREADY_EXISTS', "Channel 'denmark' already exists");
    expect(taken.body.channel_name).toBe('denmark');
    expectError(
      await t.as('hamlet').patch(`/streams/${romeId}`, { new_name: '  ' }),
      400,
      'BAD_REQUEST',
      "Channel name can't be empty.",
    );
    expectError(
      await t.as('hamlet').patch(`/streams/${romeId}`, { new_name: 'n'.repeat(61) }),
      400,
      'BAD_REQUEST',
      'new_name is too long (limit: 60 characters)',
    );
    expect((await subscriptionOf(t.as('hamlet'), romeId)).name).toBe('ROMA');
  });
});

describe('PATCH /streams/{stream_id}: privacy', () => {
  it('makes a channel private with protected history, and public again', async () => {
    const events = watchEvents(t);
    expect((await t.as('hamlet').patch(`/streams/${rome()}`, { is_private: true })).status).toBe(200);
    expect(await subscriptionOf(t.as('hamlet'), rome())).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: false,
    });
    expect(events.find((e) => e.event.property === 'invite_only')!.event).toMatchObject({
      type: 'stream',
      op: 'update',
      value: true,
      history_public_to_subscribers: false,
      is_web_public: false,
      stream_id: rome(),
    });
    expect((await t.as('hamlet').patch(`/streams/${rome()}`, { is_private: false })).status).toBe(200);
    expect(await subscriptionOf(t.as('hamlet'), rome())).toMatchObject({
      invite_only: false,
      history_public_to_subscribers: true,
    });
  });

  it('needs the permission to create channels of the new kind', async () => {
    store().updateRealm({ can_create_private_channel_group: groupId(t, 'role:administrators') });
    expectError(
      await t.as('hamlet').patch(`/streams/${rome()}`, { is_private: true }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect((await subscriptionOf(t.as('hamlet'), rome())).invite_only).toBe(false);
  });

  it('rejects history_public_to_subscribers=false for public and web-public channels', async () => {
    expectError(
      await t.as('hamlet').patch(`/streams/${rome()}`, { history_public_to_subscribers: false }),
      400,
      'BAD_REQUEST',
      'Invalid parameters',
    );
    expectError(
      await t.as('iago').patch(`/streams/${streamId(t, 'Wales')}`, { history_public_to_subscribers: false }),
      400,
      'BAD_REQUEST',
      'Invalid parameters',
    );
    expectError(
      await t.as('iago').patch(`/streams/${streamId(t, 'Wales')}`, { is_private: true }),
      400,
      'BAD_REQUEST',
      'Invalid parameters',
    );
  });

  it('allows protected history only when can_create_topic_group is role:everyone', async () => {
    const secret = await secretChannel({
      history_public_to_subscribers: true,
      can_create_topic_group: groupId(t, 'role:administrators'),
    });
    const res = await t.as('desdemona').patch(`/streams/${secret}`, { history_public_to_subscribers: false });
    expectError(
      res,
      400,
      'BAD_REQUEST',
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
    );
    const ok = await t.as('desdemona').patch(`/streams/${secret}`, {
      history_public_to_subscribers: false,
      can_create_topic_group: { new: groupId(t, 'role:everyone') },
    });
    expect(ok.status).toBe(200);
    expect(await subscriptionOf(t.as('desdemona'), secret)).toMatchObject({
      history_public_to_subscribers: false,
      can_create_topic_group: groupId(t, 'role:everyone'),
    });
  });

  it('keeps the moderation request channel private and default channels public', async () => {
    expectError(
      await t.as('iago').patch(`/streams/${store().realm.moderation_request_channel_id}`, { is_private: false }),
      400,
      'BAD_REQUEST',
      'Moderation request channel must be private.',
    );
    expectError(
      await t.as('iago').patch(`/streams/${denmark()}`, { is_private: true }),
      400,
      'BAD_REQUEST',
      'A default channel cannot be private.',
    );
  });

  it('makes web-public only with the prerequisites', async () => {
    expectError(
      await t.as('hamlet').patch(`/streams/${rome()}`, { is_web_public: true }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect((await t.as('iago').patch(`/streams/${rome()}`, { is_web_public: true })).status).toBe(200);
    expect((await subscriptionOf(t.as('hamlet'), rome())).is_web_public).toBe(true);
    store().updateRealm({ web_public_streams_enabled: false });
    expectError(
      await t.as('iago').patch(`/streams/${denmark()}`, { is_web_public: true }),
      400,
      'BAD_REQUEST',
      'Web-public channels are not enabled.',
    );
  });

  it('lets only administrators add or remove a default channel', async () => {
    expectError(
      await t.as('hamlet').patch(`/streams/${rome()}`, { is_default_stream: true }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expect(store().realm.default_stream_ids).not.toContain(rome());
    const events = watchEvents(t);
    expect((await t.as('iago').patch(`/streams/${rome()}`, { is_default_stream: true })).status).toBe(200);
    expect(store().realm.default_stream_ids).toContain(rome());
    expect(events.find((e) => e.event.type === 'default_streams')!.event.default_streams).toContain(rome());
    expect((await t.as('iago').patch(`/streams/${denmark()}`, { is_default_stream: false })).status).toBe(200);
    expect(store().realm.default_stream_ids).not.toContain(denmark());
  });
});

describe('PATCH /streams/{stream_id}: an administrator and a private channel', () => {
  it('can change the metadata of a private channel without being subscribed', async () => {
    const secret = await secretChannel();
    expect((await t.as('iago').patch(`/streams/${secret}`, { description: 'Seen by admins' })).status).toBe(200);
    expect((await subscriptionOf(t.as('desdemona'), secret)).description).toBe('Seen by admins');
    expect(
      (
        await t
          .as('iago')
          .patch(`/streams/${secret}`, { can_remove_subscribers_group: { new: groupId(t, 'role:moderators') } })
      ).status,
    ).toBe(200);
  });

  it('needs content access (being subscribed) to change its privacy and most permissions', async () => {
    const secret = await secretChannel();
    expectError(
      await t.as('iago').patch(`/streams/${secret}`, { is_private: false }),
      400,
      'BAD_REQUEST',
      'Channel content access is required.',
    );
    expectError(
      await t
        .as('iago')
        .patch(`/streams/${secret}`, { can_add_subscribers_group: { new: groupId(t, 'role:administrators') } }),
      400,
      'BAD_REQUEST',
      'Channel content access is required.',
    );
    expect((await subscriptionOf(t.as('desdemona'), secret)).can_add_subscribers_group).toBe(groupId(t, 'role:nobody'));

    store().subscriptions.insert({
      ...store().subscriptions.get(subscriptionKey(id('desdemona'), secret))!,
      user_id: id('iago'),
    });
    expect(
      (
        await t
          .as('iago')
          .patch(`/streams/${secret}`, { can_add_subscribers_group: { new: groupId(t, 'role:administrators') } })
      ).status,
    ).toBe(200);
    expect((await subscriptionOf(t.as('iago'), secret)).can_add_subscribers_group).toBe(
      groupId(t, 'role:administrators'),
    );
  });
});

describe('PATCH /streams/{stream_id}: other settings', () => {
  it('lets only owners change message_retention_days, with its special values', async () => {
    expectError(
      await t.as('iago').patch(`/streams/${denmark()}`, { message_retention_days: 30 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    const owner = t.as('desdemona');
    expect((await owner.patch(`/streams/${denmark()}`, { message_retention_days: 30 })).status).toBe(200);
    expect((await subscriptionOf(owner, denmark())).message_retention_days).toBe(30);
    expect((await owner.patch(`/streams/${denmark()}`, { message_retention_days: 'unlimited' })).status).toBe(200);
    expect((await subscriptionOf(owner, denmark())).message_retention_days).toBe(-1);
    expect((await owner.patch(`/streams/${denmark()}`, { message_retention_days: 'realm_default' })).status).toBe(200);
    expect((await subscriptionOf(owner, denmark())).message_retention_days).toBeNull();
  });

  it('only unarchives: is_archived=false unarchives, true changes nothing', async () => {
    const oldRome = streamId(t, 'Old Rome');
    expect((await t.as('iago').patch(`/streams/${denmark()}`, { is_archived: true })).status).toBe(200);
    expect((await subscriptionOf(t.as('hamlet'), denmark())).is_archived).toBe(false);
    // GET /users/me/subscriptions leaves archived channels out; it lists Old Rome once unarchived.
    expect(await subscriptionOf(t.as('hamlet'), oldRome)).toBeUndefined();
    expect(t.server.world.store.streams.get(oldRome)!.is_archived).toBe(true);
    expect((await t.as('iago').patch(`/streams/${oldRome}`, { is_archived: false })).status).toBe(200);
    expect((await subscriptionOf(t.as('hamlet'), oldRome)).is_archived).toBe(false);
  });

  it('refuses to unarchive a channel that is not archived, or a private one without subscribers', async () => {
    expect((await t.as('iago').patch(`/streams/${denmark()}`, { is_archived: false })).body).toEqual(
      error('BAD_REQUEST', 'Channel is not currently deactivated'),
    );
    const store = t.server.world.store;
    const oldRome = store.streams.get(streamId(t, 'Old Rome'))!;
    store.streams.update(oldRome, { invite_only: true });
    for (const s of store.subscriptions.filter((row) => row.stream_id === oldRome.stream_id))
      store.subscriptions.remove(s);
    expect((await t.as('iago').patch(`/streams/${oldRome.stream_id}`, { is_archived: false })).body).toEqual(
      error('BAD_REQUEST', 'Channel is private and have no subscribers'),
    );
    expect(store.streams.get(oldRome.stream_id)!.is_archived).toBe(true);
  });

  it('moves the channel into a folder, or out of it with null', async () => {
    expect((await t.as('hamlet').patch(`/streams/${rome()}`, { folder_id: null })).status).toBe(200);
    expect((await subscriptionOf(t.as('hamlet'), rome())).folder_id).toBeNull();
    expect((await t.as('hamlet').patch(`/streams/${rome()}`, { folder_id: folderId(t, 'Frontend') })).status).toBe(200);
    expect((await subscriptionOf(t.as('hamlet'), rome())).folder_id).toBe(folderId(t, 'Frontend'));
    expectError(
      await t.as('hamlet').patch(`/streams/${rome()}`, { folder_id: 999 }),
      400,
      'BAD_REQUEST',
      'Invalid channel folder ID',
    );
  });

  it('sets topics_policy; empty_topic_only only when every message is in the empty topic', async () => {
    // Members hold can_set_topics_policy_group in the dev organization; restricted, hamlet is refused.
    const admins = groupId(t, 'role:administrators');
    expect((await t.as('iago').patch('/realm', { can_set_topics_policy_group: { new: admins } })).status).toBe(200);
    expectError(
      await t.as('hamlet').patch(`/streams/${rome()}`, { topics_policy: 'allow_empty_topic' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect((await t.as('iago').patch(`/streams/${denmark()}`, { topics_policy: 'disable_empty_topic' })).status).toBe(
      200,
    );
    expect((await subscriptionOf(t.as('iago'), denmark())).topics_policy).toBe('disable_empty_topic');
    expectError(
      await t.as('iago').patch(`/streams/${streamId(t, 'Verona')}`, { topics_policy: 'empty_topic_only' }),
      400,
      'BAD_REQUEST',
      'To enable this configuration, all messages in this channel must be in the "general chat" topic. Consider renaming or deleting other topics.',
    );
    const empty = (await t.as('iago').post('/channels/create', { name: 'Empty', subscribers: [id('iago')] })).body.id;
    expect((await t.as('iago').patch(`/streams/${empty}`, { topics_policy: 'empty_topic_only' })).status).toBe(200);
    expect((await subscriptionOf(t.as('iago'), empty)).topics_policy).toBe('empty_topic_only');
  });
});

describe('PATCH /streams/{stream_id}: group settings', () => {
  it('applies {new}, accepting both forms of the value', async () => {
    const events = watchEvents(t);
    const anon = { direct_members: [id('hamlet'), id('cordelia')].sort((a, b) => a - b), direct_subgroups: [] };
    expect((await t.as('hamlet').patch(`/streams/${rome()}`, { can_send_message_group: { new: anon } })).status).toBe(
      200,
    );
    expect((await subscriptionOf(t.as('hamlet'), rome())).can_send_message_group).toEqual(anon);
    expect(events.find((e) => e.event.property === 'can_send_message_group')!.event).toEqual({
      type: 'stream',
      op: 'update',
      property: 'can_send_message_group',
      value: anon,
      stream_id: rome(),
      name: 'Rome',
    });
    expect(
      (
        await t
          .as('hamlet')
          .patch(`/streams/${rome()}`, { can_send_message_group: { new: groupId(t, 'role:moderators') } })
      ).status,
    ).toBe(200);
    expect(await subscriptionOf(t.as('hamlet'), rome())).toMatchObject({
      can_send_message_group: groupId(t, 'role:moderators'),
      stream_post_policy: 4,
    });
  });

  it('rejects a stale old value and accepts the current one in either form', async () => {
    const current = { direct_members: [id('hamlet')], direct_subgroups: [] };
    expectError(
      await t.as('hamlet').patch(`/streams/${rome()}`, {
        can_administer_channel_group: { new: groupId(t, 'hamletcharacters'), old: groupId(t, 'role:administrators') },
      }),
      400,
      'BAD_REQUEST',
      "'old' value does not match the expected value.",
    );
    expect((await subscriptionOf(t.as('hamlet'), rome())).can_administer_channel_group).toEqual(current);
    expect(
      (
        await t.as('hamlet').patch(`/streams/${rome()}`, {
          can_administer_channel_group: { new: groupId(t, 'hamletcharacters'), old: current },
        })
      ).status,
    ).toBe(200);
    expect((await subscriptionOf(t.as('hamlet'), rome())).can_administer_channel_group).toBe(
      groupId(t, 'hamletcharacters'),
    );
  });

  it('sends no event when the new value is the current one', async () => {
    const events = watchEvents(t);
    expect(
      (
        await t
          .as('iago')
          .patch(`/streams/${denmark()}`, { can_remove_subscribers_group: { new: groupId(t, 'role:administrators') } })
      ).status,
    ).toBe(200);
    expect(events.filter((e) => e.event.type === 'stream')).toEqual([]);
  });

  it('rejects groups the setting may not hold, and refuses users who cannot administer', async () => {
    expectError(
      await t.as('hamlet').patch(`/streams/${rome()}`, { can_subscribe_group: { new: groupId(t, 'role:everyone') } }),
      400,
      'BAD_REQUEST',
      "'can_subscribe_group' setting cannot be set to 'role:everyone' group.",
    );
    expectError(
      await t.as('hamlet').patch(`/streams/${rome()}`, { can_subscribe_group: { new: 999 } }),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
    expectError(
      await t.as('othello').patch(`/streams/${rome()}`, { can_subscribe_group: { new: groupId(t, 'role:members') } }),
      400,
      'BAD_REQUEST',
      'You do not have permission to administer this channel.',
    );
    expect((await subscriptionOf(t.as('hamlet'), rome())).can_subscribe_group).toBe(groupId(t, 'role:nobody'));
  });
});
