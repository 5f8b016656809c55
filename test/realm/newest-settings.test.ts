// The organization settings of feature levels 392 to 477: register carries them with the
// development organization's values from their levels on (not below), PATCH /realm changes the
// settable ones with the real server's checks, everyone hears a `realm` event, register reads
// them back; an organization may turn the channel event notices off.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { error } from '../helpers/errors.js';
import { groupId, streamId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const at = (level: number, who = 'hamlet') => t.as(who, { 'X-Mock-Feature-Level': String(level) });
const realmAt = async (level: number) => (await at(level).post('/register', { fetch_event_types: ['realm'] })).body;

/** Field, the level it is new in, and the development organization's value. */
const NEWEST: Array<[string, number, (t: TestServer) => unknown]> = [
  ['realm_can_set_topics_policy_group', 392, (t) => groupId(t, 'role:members')],
  ['max_bulk_new_subscription_messages', 397, () => 100],
  ['realm_can_set_delete_message_policy_group', 407, (t) => groupId(t, 'role:moderators')],
  ['realm_require_e2ee_push_notifications', 409, () => false],
  ['max_reminder_note_length', 415, () => 1000],
  ['realm_welcome_message_custom_text', 416, () => ''],
  ['realm_send_channel_events_messages', 434, () => true],
  ['realm_owner_full_content_access', 438, () => false],
  ['realm_gif_rating_policy', 453, () => 2],
  ['realm_default_avatar_source', 456, () => 'J'],
  ['realm_uuid', 466, (t) => t.server.world.store.realm.shown_settings!.uuid],
  ['realm_media_preview_size', 469, () => 100],
  ['realm_workplace_users_group', 477, (t) => groupId(t, 'role:everyone')],
];

describe('register: the newest organization settings', () => {
  it.each(NEWEST)('%s: the dev organization value from FL %i on, absent below', async (field, level, value) => {
    expect((await realmAt(511))[field]).toEqual(value(t));
    expect((await realmAt(level))[field]).toEqual(value(t));
    expect(await realmAt(level - 1)).not.toHaveProperty(field);
  });

  it('renames the GIF rating and its options at 442 and 453', async () => {
    const newest = await realmAt(511);
    expect(newest).not.toHaveProperty('realm_giphy_rating');
    expect(newest).not.toHaveProperty('giphy_rating_options');
    expect(newest.gif_rating_policy_options.g).toEqual({ name: 'Allow GIFs rated G (General audience)', id: 2 });
    const between = await realmAt(450);
    expect(between.realm_giphy_rating).toBe(2);
    expect(between).toHaveProperty('gif_rating_options');
    expect(between).not.toHaveProperty('gif_rating_policy_options');
    expect(await realmAt(441)).toHaveProperty('giphy_rating_options');
  });

  it('lists the new group settings in server_supported_permission_settings with their defaults', async () => {
    const realm = (await realmAt(511)).server_supported_permission_settings.realm;
    expect(realm.can_set_topics_policy_group).toMatchObject({
      default_group_name: 'role:members',
      allow_everyone_group: true,
    });
    expect(realm.can_set_delete_message_policy_group).toMatchObject({
      default_group_name: 'role:moderators',
      allow_everyone_group: false,
    });
    expect(realm.workplace_users_group).toMatchObject({ default_group_name: 'role:everyone' });
    expect((await realmAt(476)).server_supported_permission_settings.realm).not.toHaveProperty('workplace_users_group');
  });

  it('sends tenor_api_key to clients that name tenor, from FL 442', async () => {
    const r = await t.as('hamlet').post('/register', { fetch_event_types: ['tenor'] });
    expect(r.body.tenor_api_key).toBe('');
    expect((await at(441).post('/register', { fetch_event_types: ['tenor'] })).body).not.toHaveProperty(
      'tenor_api_key',
    );
  });
});

describe('PATCH /realm: the newest settings', () => {
  it('changes them, tells everyone and register reads them back', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm']);
    const admins = groupId(t, 'role:administrators');
    const members = groupId(t, 'role:members');
    const r = await t.as('iago').patch('/realm', {
      require_e2ee_push_notifications: true,
      welcome_message_custom_text: 'Welcome to **Elsinore**',
      send_channel_events_messages: false,
      default_avatar_source: 'G',
      media_preview_size: 150,
      can_set_delete_message_policy_group: { new: admins, old: groupId(t, 'role:moderators') },
      can_set_topics_policy_group: { new: admins },
      workplace_users_group: { new: members },
    });
    expect(r.body).toEqual({
      ...ok,
      require_e2ee_push_notifications: true,
      welcome_message_custom_text: 'updated',
      send_channel_events_messages: false,
      default_avatar_source: 'updated',
      media_preview_size: 150,
      can_set_delete_message_policy_group: admins,
      can_set_topics_policy_group: admins,
      workplace_users_group: members,
    });
    const events = (await eventsOf(t, 'hamlet', queue)).map(({ id: _id, ...e }) => e);
    expect(events).toHaveLength(8);
    // (their order is not compared)
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'realm', op: 'update', property: 'require_e2ee_push_notifications', value: true },
        { type: 'realm', op: 'update', property: 'welcome_message_custom_text', value: 'Welcome to **Elsinore**' },
        { type: 'realm', op: 'update', property: 'send_channel_events_messages', value: false },
        { type: 'realm', op: 'update', property: 'default_avatar_source', value: 'G' },
        { type: 'realm', op: 'update', property: 'media_preview_size', value: 150 },
        {
          type: 'realm',
          op: 'update_dict',
          property: 'default',
          data: { can_set_delete_message_policy_group: admins },
        },
        { type: 'realm', op: 'update_dict', property: 'default', data: { can_set_topics_policy_group: admins } },
        { type: 'realm', op: 'update_dict', property: 'default', data: { workplace_users_group: members } },
      ]),
    );
    expect(await realmAt(511)).toMatchObject({
      realm_require_e2ee_push_notifications: true,
      realm_welcome_message_custom_text: 'Welcome to **Elsinore**',
      realm_send_channel_events_messages: false,
      realm_default_avatar_source: 'G',
      realm_media_preview_size: 150,
      realm_can_set_delete_message_policy_group: admins,
      realm_can_set_topics_policy_group: admins,
      realm_workplace_users_group: members,
    });
  });

  it('tells a queue of an older level nothing of a setting newer than it', async () => {
    const queueAt = async (level: number) =>
      (await at(level).post('/register', { event_types: ['realm'], fetch_event_types: [] })).body.queue_id as string;
    const at468 = await queueAt(468);
    const at476 = await queueAt(476);
    await t.as('iago').patch('/realm', {
      media_preview_size: 200,
      workplace_users_group: { new: groupId(t, 'role:members') },
      name: 'Elsinore',
    });
    const kinds = async (queue: string) =>
      (await eventsOf(t, 'hamlet', queue)).map((e) => (e.property === 'default' ? Object.keys(e.data)[0] : e.property));
    expect(await kinds(at468)).toEqual(['name']);
    expect(await kinds(at476)).toEqual(['name', 'media_preview_size']);
  });

  it('checks the values as the real server does, changing nothing when one is wrong', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ media_preview_size: 120 }, 'Invalid media_preview_size'],
      [{ default_avatar_source: 'U' }, 'Invalid default_avatar_source'],
      [
        { welcome_message_custom_text: 'x'.repeat(8001) },
        'welcome_message_custom_text is too long (limit: 8000 characters)',
      ],
      [
        { can_set_delete_message_policy_group: { new: groupId(t, 'role:everyone') } },
        "'can_set_delete_message_policy_group' setting cannot be set to 'role:everyone' group.",
      ],
    ];
    for (const [params, msg] of cases) {
      const r = await t.as('iago').patch('/realm', { send_channel_events_messages: false, ...params });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', msg));
    }
    expect((await realmAt(511)).realm_send_channel_events_messages).toBe(true);
    // Members may not change organization settings.
    const member = await t.as('hamlet').patch('/realm', { media_preview_size: 200 });
    expect(member.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
  });

  it('does not know a setting below its level', async () => {
    const r = await at(468, 'iago').patch('/realm', { media_preview_size: 200 });
    expect(r.body).toEqual({ ...ok, ignored_parameters_unsupported: ['media_preview_size'] });
    expect((await realmAt(511)).realm_media_preview_size).toBe(100);
    // A group setting too (its level stands beside the $ref of its schema).
    const group = await at(391, 'iago').patch('/realm', {
      can_set_topics_policy_group: { new: groupId(t, 'role:administrators') },
    });
    expect(group.body).toEqual({ ...ok, ignored_parameters_unsupported: ['can_set_topics_policy_group'] });
    expect((await realmAt(511)).realm_can_set_topics_policy_group).toBe(groupId(t, 'role:members'));
  });
});

describe('the GIF rating (giphy_rating, gif_rating_policy from FL 453)', () => {
  it("changes under the request level's name; each queue hears its own level's name", async () => {
    const newest = await registerQueue(t, 'hamlet', ['realm']);
    const older = (await at(452).post('/register', { event_types: ['realm'], fetch_event_types: [] })).body
      .queue_id as string;
    const r = await t.as('iago').patch('/realm', { gif_rating_policy: 3 });
    expect(r.body).toEqual({ ...ok, gif_rating_policy: 3 });
    const strip = (events: any[]) => events.map(({ id: _id, ...e }) => e);
    expect(strip(await eventsOf(t, 'hamlet', newest))).toEqual([
      { type: 'realm', op: 'update', property: 'gif_rating_policy', value: 3 },
    ]);
    expect(strip(await eventsOf(t, 'hamlet', older))).toEqual([
      { type: 'realm', op: 'update', property: 'giphy_rating', value: 3 },
    ]);
    expect((await realmAt(511)).realm_gif_rating_policy).toBe(3);
    expect((await realmAt(452)).realm_giphy_rating).toBe(3);

    const old = await at(452, 'iago').patch('/realm', { giphy_rating: 0 });
    expect(old.body).toEqual({ ...ok, giphy_rating: 0 });
    expect((await realmAt(511)).realm_gif_rating_policy).toBe(0);
    expect((await t.as('iago').patch('/realm', { giphy_rating: 1 })).body).toEqual({
      ...ok,
      ignored_parameters_unsupported: ['giphy_rating'],
    });
    expect((await t.as('iago').patch('/realm', { gif_rating_policy: 7 })).body).toEqual(
      error('BAD_REQUEST', 'Invalid gif_rating_policy 7'),
    );
  });
});

describe('send_channel_events_messages', () => {
  it("turned off, archiving a channel posts no notice in its 'channel events' topic", async () => {
    const notices = (id: number) =>
      t.server.world.store.messages.filter((m) => m.stream_id === id && m.topic === 'channel events').length;
    const verona = streamId(t, 'Verona');
    const denmark = streamId(t, 'Denmark');
    expect((await t.as('iago').delete(`/streams/${verona}`)).status).toBe(200);
    expect(notices(verona)).toBe(1);
    await t.as('iago').patch('/realm', { send_channel_events_messages: false });
    expect((await t.as('iago').delete(`/streams/${denmark}`)).status).toBe(200);
    expect(notices(denmark)).toBe(0);
  });
});

describe('can_set_delete_message_policy_group', () => {
  it("decides who besides administrators may change a channel's deletion permissions", async () => {
    const store = t.server.world.store;
    const denmark = store.streams.get(streamId(t, 'Denmark'))!;
    // Hamlet (member) and Shiva (moderator) administer the channel.
    const admins = { direct_members: [t.user('hamlet').user_id, t.user('shiva').user_id], direct_subgroups: [] };
    store.streams.update(denmark, { can_administer_channel_group: admins });
    const change = (who: string, group: string) =>
      t.as(who).patch(`/streams/${denmark.stream_id}`, { can_delete_own_message_group: { new: groupId(t, group) } });
    expect((await change('hamlet', 'role:members')).body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    expect((await change('shiva', 'role:members')).status).toBe(200);
    await t.as('iago').patch('/realm', { can_set_delete_message_policy_group: { new: groupId(t, 'role:members') } });
    expect((await change('hamlet', 'role:moderators')).status).toBe(200);
    expect(store.streams.get(denmark.stream_id)!.can_delete_own_message_group).toBe(groupId(t, 'role:moderators'));
  });
});
