// POST /channels/create: defaults, limits, permissions, group settings, announce and events.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue, watchEvents } from '../helpers/events.js';
import { folderId, groupId, streamId } from '../helpers/fixture-rows.js';
import { subscriptionOf } from '../helpers/read-back.js';
import { STREAM_COLORS } from '../../src/domain/channels/add-subscriptions.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
const store = () => t.server.world.store;

describe('POST /channels/create', () => {
  it("creates a public channel with the spec defaults, visible in the subscribers' subscriptions", async () => {
    t.server.clock.freeze();
    const now = t.server.clock.now();
    const res = await t
      .as('hamlet')
      .post('/channels/create', { name: 'Elsinore', subscribers: [id('hamlet'), id('othello')] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const sub = await subscriptionOf(t.as('hamlet'), res.body.id);
    expect(sub).toMatchObject({
      stream_id: res.body.id,
      name: 'Elsinore',
      description: '',
      rendered_description: '',
      date_created: now,
      creator_id: id('hamlet'),
      invite_only: false,
      is_web_public: false,
      is_archived: false,
      history_public_to_subscribers: true,
      message_retention_days: null,
      folder_id: null,
      topics_policy: 'inherit',
      first_message_id: null,
      stream_weekly_traffic: null,
      is_recently_active: true,
      subscriber_count: 2,
      stream_post_policy: 1,
      is_announcement_only: false,
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
      push_notifications: null,
      audible_notifications: null,
      can_add_subscribers_group: groupId(t, 'role:nobody'),
      can_remove_subscribers_group: groupId(t, 'role:administrators'),
      can_administer_channel_group: { direct_members: [id('hamlet')], direct_subgroups: [] },
      can_send_message_group: groupId(t, 'role:everyone'),
      can_create_topic_group: groupId(t, 'role:everyone'),
      can_subscribe_group: groupId(t, 'role:nobody'),
    });
    expect(await subscriptionOf(t.as('othello'), res.body.id)).toMatchObject({ name: 'Elsinore' });
    expect(await subscriptionOf(t.as('cordelia'), res.body.id)).toBeUndefined();
  });

  it('gives each new subscriber the first palette colour they do not use yet', async () => {
    const used = store()
      .subscriptions.filter((s) => s.user_id === id('hamlet'))
      .map((s) => s.color);
    const res = await t.as('hamlet').post('/channels/create', { name: 'Colours', subscribers: [id('hamlet')] });
    expect((await subscriptionOf(t.as('hamlet'), res.body.id)).color).toBe(
      STREAM_COLORS.find((c) => !used.includes(c)),
    );
  });

  it('answers 409 CHANNEL_ALREADY_EXISTS for a name in use, compared case-insensitively', async () => {
    const res = await t.as('hamlet').post('/channels/create', { name: 'denmark', subscribers: [] });
    expectError(res, 409, 'CHANNEL_ALREADY_EXISTS', "Channel 'denmark' already exists");
    expect(res.body.channel_name).toBe('denmark');
  });

  it('strips the name and checks it is not empty, printable and within 60 characters', async () => {
    const ok = await t.as('hamlet').post('/channels/create', { name: '  Padded  ', subscribers: [id('hamlet')] });
    expect((await subscriptionOf(t.as('hamlet'), ok.body.id)).name).toBe('Padded');
    expectError(
      await t.as('hamlet').post('/channels/create', { name: '   ', subscribers: [] }),
      400,
      'BAD_REQUEST',
      "Channel name can't be empty.",
    );
    expectError(
      await t.as('hamlet').post('/channels/create', { name: 'ab\u0007cd', subscribers: [] }),
      400,
      'BAD_REQUEST',
      'Invalid character in channel name, at position 3.',
    );
    expectError(
      await t.as('hamlet').post('/channels/create', { name: 'x'.repeat(61), subscribers: [] }),
      400,
      'BAD_REQUEST',
      'name is too long (limit: 60 characters)',
    );
    expect((await t.as('hamlet').post('/channels/create', { name: 'y'.repeat(60), subscribers: [] })).status).toBe(200);
  });

  it('renders the description, turns newlines into spaces and limits it to 1024 characters', async () => {
    const res = await t
      .as('hamlet')
      .post('/channels/create', { name: 'Described', description: 'To **be**\nor not', subscribers: [id('hamlet')] });
    const sub = await subscriptionOf(t.as('hamlet'), res.body.id);
    expect(sub.description).toBe('To **be** or not');
    expect(sub.rendered_description).toBe('<p>To <strong>be</strong> or not</p>');
    expectError(
      await t.as('hamlet').post('/channels/create', { name: 'Long', description: 'd'.repeat(1025), subscribers: [] }),
      400,
      'BAD_REQUEST',
      'description is too long (limit: 1024 characters)',
    );
  });

  it('rejects unknown and deactivated subscribers and creates nothing', async () => {
    expectError(
      await t.as('hamlet').post('/channels/create', { name: 'Ghosts', subscribers: [id('hamlet'), 9999] }),
      400,
      'BAD_REQUEST',
      'Invalid user ID: 9999',
    );
    expectError(
      await t.as('hamlet').post('/channels/create', { name: 'Ghosts', subscribers: [id('ariel')] }),
      400,
      'BAD_REQUEST',
      `Invalid user ID: ${id('ariel')}`,
    );
    expect(store().streams.by('name', 'ghosts')).toBeUndefined();
  });

  it('does not let guests create channels', async () => {
    expectError(
      await t.as('polonius').post('/channels/create', { name: 'Arras', subscribers: [] }),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
  });

  it('needs can_create_public_channel_group / can_create_private_channel_group', async () => {
    store().updateRealm({
      can_create_public_channel_group: groupId(t, 'role:administrators'),
      can_create_private_channel_group: groupId(t, 'role:administrators'),
    });
    expectError(
      await t.as('hamlet').post('/channels/create', { name: 'Public', subscribers: [] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await t.as('hamlet').post('/channels/create', { name: 'Private', invite_only: true, subscribers: [] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect((await t.as('iago').post('/channels/create', { name: 'Public', subscribers: [] })).status).toBe(200);
    expect(
      (await t.as('iago').post('/channels/create', { name: 'Private', invite_only: true, subscribers: [] })).status,
    ).toBe(200);
  });

  it('makes private channels with protected history by default, shared history on request', async () => {
    const a = await t
      .as('hamlet')
      .post('/channels/create', { name: 'Closet', invite_only: true, subscribers: [id('hamlet')] });
    expect(await subscriptionOf(t.as('hamlet'), a.body.id)).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: false,
    });
    const b = await t.as('hamlet').post('/channels/create', {
      name: 'Shared',
      invite_only: true,
      history_public_to_subscribers: true,
      subscribers: [id('hamlet')],
    });
    expect(await subscriptionOf(t.as('hamlet'), b.body.id)).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: true,
    });
    // A public channel's history is always public to its subscribers.
    const c = await t
      .as('hamlet')
      .post('/channels/create', { name: 'Open', history_public_to_subscribers: false, subscribers: [id('hamlet')] });
    expect((await subscriptionOf(t.as('hamlet'), c.body.id)).history_public_to_subscribers).toBe(true);
  });

  it('requires can_create_topic_group role:everyone for a private channel with protected history', async () => {
    const res = await t.as('hamlet').post('/channels/create', {
      name: 'Guarded',
      invite_only: true,
      can_create_topic_group: groupId(t, 'role:administrators'),
      subscribers: [],
    });
    expectError(
      res,
      400,
      'BAD_REQUEST',
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
    );
    expect(res.body.parameters).toBe('history_public_to_subscribers, can_create_topic_group');
    const shared = await t.as('hamlet').post('/channels/create', {
      name: 'Guarded',
      invite_only: true,
      history_public_to_subscribers: true,
      can_create_topic_group: groupId(t, 'role:administrators'),
      subscribers: [id('hamlet')],
    });
    expect((await subscriptionOf(t.as('hamlet'), shared.body.id)).can_create_topic_group).toBe(
      groupId(t, 'role:administrators'),
    );
  });

  it('creates web-public channels only with the prerequisites', async () => {
    expectError(
      await t.as('hamlet').post('/channels/create', { name: 'Stage', is_web_public: true, subscribers: [] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    const ok = await t
      .as('shiva')
      .post('/channels/create', { name: 'Stage', is_web_public: true, subscribers: [id('shiva')] });
    expect((await subscriptionOf(t.as('shiva'), ok.body.id)).is_web_public).toBe(true);
    store().updateRealm({ enable_spectator_access: false });
    expectError(
      await t.as('shiva').post('/channels/create', { name: 'Stage 2', is_web_public: true, subscribers: [] }),
      400,
      'BAD_REQUEST',
      'Web-public channels are not enabled.',
    );
  });

  it('lets only administrators make a default channel, and never a private one', async () => {
    expectError(
      await t.as('hamlet').post('/channels/create', { name: 'Lobby', is_default_stream: true, subscribers: [] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await t
        .as('iago')
        .post('/channels/create', { name: 'Lobby', is_default_stream: true, invite_only: true, subscribers: [] }),
      400,
      'BAD_REQUEST',
      'A default channel cannot be private.',
    );
    const ok = await t.as('iago').post('/channels/create', { name: 'Lobby', is_default_stream: true, subscribers: [] });
    expect(store().realm.default_stream_ids).toContain(ok.body.id);
  });

  it('lets only owners set message_retention_days', async () => {
    const refused = await t
      .as('iago')
      .post('/channels/create', { name: 'Brief', message_retention_days: 30, subscribers: [] });
    expectError(refused, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    const days = await t
      .as('desdemona')
      .post('/channels/create', { name: 'Brief', message_retention_days: 30, subscribers: [id('desdemona')] });
    expect((await subscriptionOf(t.as('desdemona'), days.body.id)).message_retention_days).toBe(30);
    const forever = await t.as('desdemona').post('/channels/create', {
      name: 'Forever',
      message_retention_days: 'unlimited',
      subscribers: [id('desdemona')],
    });
    expect((await subscriptionOf(t.as('desdemona'), forever.body.id)).message_retention_days).toBe(-1);
    const inherit = await t.as('hamlet').post('/channels/create', {
      name: 'Inherit',
      message_retention_days: 'realm_default',
      subscribers: [id('hamlet')],
    });
    expect((await subscriptionOf(t.as('hamlet'), inherit.body.id)).message_retention_days).toBeNull();
  });

  it('sets topics_policy (other than inherit) only for administrators and can_set_topics_policy_group', async () => {
    // The dev organization gives can_set_topics_policy_group to members.
    const allowed = await t
      .as('hamlet')
      .post('/channels/create', { name: 'Topics1', topics_policy: 'allow_empty_topic', subscribers: [] });
    expect(allowed.status).toBe(200);
    const admins = groupId(t, 'role:administrators');
    expect((await t.as('iago').patch('/realm', { can_set_topics_policy_group: { new: admins } })).status).toBe(200);
    expectError(
      await t
        .as('hamlet')
        .post('/channels/create', { name: 'Topics', topics_policy: 'allow_empty_topic', subscribers: [] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    const ok = await t
      .as('iago')
      .post('/channels/create', { name: 'Topics', topics_policy: 'empty_topic_only', subscribers: [id('iago')] });
    expect((await subscriptionOf(t.as('iago'), ok.body.id)).topics_policy).toBe('empty_topic_only');
  });

  it('puts the channel in an existing folder', async () => {
    expectError(
      await t.as('hamlet').post('/channels/create', { name: 'Filed', folder_id: 999, subscribers: [] }),
      400,
      'BAD_REQUEST',
      'Invalid channel folder ID',
    );
    const ok = await t
      .as('hamlet')
      .post('/channels/create', { name: 'Filed', folder_id: folderId(t, 'Frontend'), subscribers: [id('hamlet')] });
    expect((await subscriptionOf(t.as('hamlet'), ok.body.id)).folder_id).toBe(folderId(t, 'Frontend'));
  });

  it('accepts both forms of a group-setting value and normalises them', async () => {
    const res = await t.as('hamlet').post('/channels/create', {
      name: 'Groups',
      subscribers: [id('hamlet')],
      can_add_subscribers_group: groupId(t, 'hamletcharacters'),
      can_administer_channel_group: { direct_members: [id('hamlet'), id('cordelia')], direct_subgroups: [] },
      can_remove_subscribers_group: { direct_members: [], direct_subgroups: [groupId(t, 'role:moderators')] },
    });
    expect(await subscriptionOf(t.as('hamlet'), res.body.id)).toMatchObject({
      can_add_subscribers_group: groupId(t, 'hamletcharacters'),
      can_administer_channel_group: {
        direct_members: [id('hamlet'), id('cordelia')].sort((a, b) => a - b),
        direct_subgroups: [],
      },
      can_remove_subscribers_group: groupId(t, 'role:moderators'),
    });
  });

  it('rejects unknown groups and groups a setting may not hold', async () => {
    expectError(
      await t.as('hamlet').post('/channels/create', { name: 'Bad', can_add_subscribers_group: 999, subscribers: [] }),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
    expectError(
      await t.as('hamlet').post('/channels/create', {
        name: 'Bad',
        can_add_subscribers_group: groupId(t, 'role:everyone'),
        subscribers: [],
      }),
      400,
      'BAD_REQUEST',
      "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group.",
    );
    expectError(
      await t.as('hamlet').post('/channels/create', {
        name: 'Bad',
        can_send_message_group: groupId(t, 'role:internet'),
        subscribers: [],
      }),
      400,
      'BAD_REQUEST',
      "'can_send_message_group' setting cannot be set to 'role:internet' group.",
    );
    expectError(
      await t.as('hamlet').post('/channels/create', {
        name: 'Bad',
        can_administer_channel_group: { direct_members: [9999], direct_subgroups: [] },
        subscribers: [],
      }),
      400,
      'BAD_REQUEST',
      'Invalid user ID: 9999',
    );
  });

  it('announces the channel in the new-channel announcements channel when asked', async () => {
    const announcements = store().realm.new_stream_announcements_stream_id!;
    const before = store().messages.size;
    await t.as('hamlet').post('/channels/create', { name: 'Quiet', subscribers: [id('hamlet')] });
    expect(store().messages.size).toBe(before);

    const othellosQueue = await registerQueue(t, 'othello', ['message']);
    await t.as('hamlet').post('/channels/create', { name: 'Loud', announce: true, subscribers: [id('hamlet')] });
    const message = store().messages.all().at(-1)!;
    expect(message).toMatchObject({
      sender_id: store().realm.notification_bot_id,
      stream_id: announcements,
      topic: 'new channels',
      content: `@_**${t.user('hamlet').full_name}|${id('hamlet')}** created a new channel #**Loud**.`,
    });
    expect(message.flags[String(id('hamlet'))]).toEqual(['read']);
    expect(message.flags[String(id('othello'))]).toEqual([]);
    const [event] = await eventsOf(t, 'othello', othellosQueue);
    expect(event).toMatchObject({
      type: 'message',
      flags: [],
      message: { id: message.id, subject: 'new channels', sender_id: store().realm.notification_bot_id },
    });
    expect((await subscriptionOf(t.as('hamlet'), announcements)).first_message_id).toBeLessThan(message.id);
  });

  it('publishes stream/create, subscription/add to the subscribers and peer_add to the others', async () => {
    const events = watchEvents(t);
    const res = await t
      .as('hamlet')
      .post('/channels/create', { name: 'Evented', subscribers: [id('hamlet'), id('othello')] });
    const create = events.find((e) => e.event.type === 'stream' && e.event.op === 'create')!;
    expect(create.event.streams[0]).toMatchObject({ stream_id: res.body.id, name: 'Evented' });
    // for_unarchiving is internal to the real server: clients never see it.
    expect(create.event).not.toHaveProperty('for_unarchiving');
    expect(create.users).toContain(id('cordelia'));
    expect(create.users).not.toContain(id('polonius'));
    const adds = events.filter((e) => e.event.type === 'subscription' && e.event.op === 'add');
    expect(adds.map((e) => e.users).sort()).toEqual([[id('hamlet')], [id('othello')]].sort());
    expect(adds[0].event.subscriptions[0]).toMatchObject({
      stream_id: res.body.id,
      subscribers: [id('hamlet'), id('othello')],
    });
    const peer = events.find((e) => e.event.op === 'peer_add')!;
    expect(peer.event).toEqual({
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [res.body.id],
      user_ids: [id('hamlet'), id('othello')],
    });
    expect(peer.users).not.toContain(id('hamlet'));
    expect(peer.users).toContain(id('cordelia'));
  });

  it("sends a private channel's creation only to those who may see it", async () => {
    const events = watchEvents(t);
    const res = await t
      .as('hamlet')
      .post('/channels/create', { name: 'Hidden', invite_only: true, subscribers: [id('hamlet')] });
    const create = events.find((e) => e.event.type === 'stream' && e.event.op === 'create')!;
    expect(create.users).toEqual(expect.arrayContaining([id('hamlet'), id('iago'), id('desdemona')]));
    expect(create.users).not.toContain(id('othello'));
    expect(await subscriptionOf(t.as('othello'), res.body.id)).toBeUndefined();
    expect(streamId(t, 'Hidden')).toBe(res.body.id);
  });
});
