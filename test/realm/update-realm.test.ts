// PATCH /realm: organization settings, who may change them, the real server's errors, the
// `realm` events everyone gets and what register shows afterwards.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { error } from '../helpers/errors.js';
import { groupId, streamId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const realmOf = async (who: string) => (await t.as(who).post('/register', { fetch_event_types: ['realm'] })).body;

describe('PATCH /realm', () => {
  it('changes settings, answers what changed, tells everyone and register shows it', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm']);
    const r = await t.as('iago').patch('/realm', {
      name: 'Elsinore',
      enable_read_receipts: false,
      message_content_edit_limit_seconds: 'unlimited',
      move_messages_within_stream_limit_seconds: 3600,
      message_edit_history_visibility_policy: 'moves',
      default_language: 'de',
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ...ok,
      name: 'updated',
      enable_read_receipts: false,
      message_content_edit_limit_seconds: null,
      move_messages_within_stream_limit_seconds: 3600,
      // The number behind the name, as the real server's JSON encoder writes the parsed enum.
      message_edit_history_visibility_policy: 2,
      default_language: 'updated',
    });
    const events = (await eventsOf(t, 'hamlet', queue)).map(({ id: _id, ...e }) => e);
    expect(events).toEqual([
      { type: 'realm', op: 'update', property: 'name', value: 'Elsinore' },
      { type: 'realm', op: 'update', property: 'default_language', value: 'de' },
      { type: 'realm', op: 'update', property: 'enable_read_receipts', value: false },
      { type: 'realm', op: 'update', property: 'message_edit_history_visibility_policy', value: 'moves' },
      { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: null } },
      { type: 'realm', op: 'update', property: 'move_messages_within_stream_limit_seconds', value: 3600 },
    ]);
    const state = await realmOf('hamlet');
    expect(state).toMatchObject({
      realm_name: 'Elsinore',
      realm_enable_read_receipts: false,
      realm_message_content_edit_limit_seconds: null,
      realm_move_messages_within_stream_limit_seconds: 3600,
      realm_message_edit_history_visibility_policy: 'moves',
      realm_allow_edit_history: true,
      realm_default_language: 'de',
    });
    expect((await t.anonymous().get('/server_settings')).body.realm_name).toBe('Elsinore');
  });

  it('leaves out settings given their current value', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm']);
    const r = await t.as('iago').patch('/realm', { name: 'Zulip Dev', allow_message_editing: true });
    expect(r.body).toEqual(ok);
    expect(await eventsOf(t, 'hamlet', queue)).toEqual([]);
  });

  it('changes a group setting as {new, old} and announces it as update_dict', async () => {
    const queue = await registerQueue(t, 'othello', ['realm']);
    const admins = groupId(t, 'role:administrators');
    const members = groupId(t, 'role:members');
    const r = await t
      .as('iago')
      .patch('/realm', { can_add_custom_emoji_group: { new: admins, old: groupId(t, 'role:everyone') } });
    expect(r.body).toEqual({ ...ok, can_add_custom_emoji_group: admins });
    const [event] = await eventsOf(t, 'othello', queue);
    expect(event).toMatchObject({
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { can_add_custom_emoji_group: admins },
    });
    expect((await realmOf('othello')).realm_can_add_custom_emoji_group).toBe(admins);

    const stale = await t.as('iago').patch('/realm', { can_add_custom_emoji_group: { new: members, old: members } });
    expect(stale.body).toEqual(error('BAD_REQUEST', "'old' value does not match the expected value."));
    const everyone = await t
      .as('iago')
      .patch('/realm', { can_add_custom_emoji_group: { new: groupId(t, 'role:everyone') } });
    expect(everyone.body).toEqual(
      error('BAD_REQUEST', "'can_add_custom_emoji_group' setting cannot be set to 'role:everyone' group."),
    );
    const anonymous = { direct_members: [t.user('hamlet').user_id], direct_subgroups: [admins] };
    const mixed = await t.as('iago').patch('/realm', { can_add_custom_emoji_group: { new: anonymous } });
    expect(mixed.body).toEqual({ ...ok, can_add_custom_emoji_group: anonymous });
  });

  it('turns an announcement channel off with -1 and refuses one that does not exist', async () => {
    const r = await t.as('iago').patch('/realm', {
      signup_announcements_stream_id: -1,
      new_stream_announcements_stream_id: streamId(t, 'Scotland'),
    });
    expect(r.body).toEqual({
      ...ok,
      signup_announcements_stream_id: -1,
      new_stream_announcements_stream_id: streamId(t, 'Scotland'),
    });
    expect(await realmOf('hamlet')).toMatchObject({
      realm_signup_announcements_stream_id: -1,
      realm_new_stream_announcements_stream_id: streamId(t, 'Scotland'),
    });
    const bad = await t.as('iago').patch('/realm', { zulip_update_announcements_stream_id: 9999 });
    expect(bad.body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
  });

  it("checks values with the real server's wording, and changes nothing when one is wrong", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ default_language: 'xx' }, "Invalid language 'xx'"],
      [{ message_content_delete_limit_seconds: 0 }, "Bad value for 'message_content_delete_limit_seconds': 0"],
      [
        { move_messages_between_streams_limit_seconds: -5 },
        "Bad value for 'move_messages_between_streams_limit_seconds': -5",
      ],
      [{ message_retention_days: 0 }, "Bad value for 'message_retention_days': 0"],
      [{ name: 'x'.repeat(41) }, 'name is too long (limit: 40 characters)'],
      [{ enable_read_receipts: 'maybe' }, 'enable_read_receipts is not valid JSON'],
    ];
    for (const [params, msg] of cases) {
      const r = await t.as('desdemona').patch('/realm', { description: 'changed', ...params });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', msg));
    }
    expect((await realmOf('hamlet')).realm_description).toBe(t.server.world.store.realm.description);
    expect(t.server.world.store.realm.description).not.toBe('changed');
  });

  it('keeps owner-only settings to owners', async () => {
    const refused = await t.as('iago').patch('/realm', { waiting_period_threshold: 3 });
    expect(refused.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'));
    const r = await t
      .as('desdemona')
      .patch('/realm', { waiting_period_threshold: 3, message_retention_days: 'unlimited', invite_required: true });
    expect(r.body).toEqual({ ...ok, waiting_period_threshold: 3, invite_required: true });
    const again = await t.as('desdemona').patch('/realm', { message_retention_days: 30 });
    expect(again.body).toEqual({ ...ok, message_retention_days: 30 });
    expect(await realmOf('hamlet')).toMatchObject({
      realm_waiting_period_threshold: 3,
      realm_invite_required: true,
      realm_message_retention_days: 30,
    });
  });

  it('refuses members and moderators', async () => {
    for (const who of ['hamlet', 'shiva']) {
      const r = await t.as(who).patch('/realm', { name: 'Mine' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
    }
    expect(t.server.world.store.realm.name).toBe('Zulip Dev');
  });
});
