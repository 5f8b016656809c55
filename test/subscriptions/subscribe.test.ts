// POST /users/me/subscriptions: subscribing oneself and others, creating channels by name,
// permissions, unauthorized channels, the response maps and the events.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue, watchEvents } from '../helpers/events.js';
import { streamId } from '../helpers/fixture-rows.js';
import { subscriptionOf } from '../helpers/read-back.js';
import { systemGroupId } from '../../src/domain/group-settings/membership.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const store = () => t.server.world.store;
const level = Number(process.env.TEST_FEATURE_LEVEL ?? 511);
const id = (who: string) => t.user(who).user_id;
const subscribe = (who: string, params: Record<string, unknown>) => t.as(who).post('/users/me/subscriptions', params);
const isSubscribed = (who: string, name: string) => !!store().subscriptions.get(`${id(who)}:${streamId(t, name)}`);

describe('subscribing oneself', () => {
  it('subscribes the caller to an existing channel and reports it by user ID', async () => {
    const r = await subscribe('othello', { subscriptions: [{ name: 'Rome' }] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      subscribed: { [String(id('othello'))]: ['Rome'] },
      already_subscribed: {},
      // From FL 397 (the suite also runs at 372).
      ...(level >= 397 ? { new_subscription_messages_sent: true } : {}),
    });
    const sub = await subscriptionOf(t.as('othello'), streamId(t, 'Rome'));
    expect(sub).toMatchObject({ name: 'Rome', is_muted: false, pin_to_top: false });
  });

  it('reports channels the caller was already subscribed to', async () => {
    const r = await subscribe('hamlet', { subscriptions: [{ name: 'denmark' }, { name: 'Rome' }] });
    expect(r.body.subscribed).toEqual({});
    expect(r.body.already_subscribed).toEqual({ [String(id('hamlet'))]: ['Denmark', 'Rome'] });
  });

  it('uses the requested colour', async () => {
    await subscribe('othello', { subscriptions: [{ name: 'Rome', color: '#abcdef' }] });
    expect((await subscriptionOf(t.as('othello'), streamId(t, 'Rome'))).color).toBe('#abcdef');
    const bad = await subscribe('othello', { subscriptions: [{ name: 'Venice' }, { name: 'Scotland', color: 'red' }] });
    expectError(
      bad,
      400,
      'BAD_REQUEST',
      'Invalid subscriptions[1]: Value error, add.color is not a valid hex color code',
    );
  });

  it('sends subscription add to the subscriber and peer_add to the others who can see the channel', async () => {
    const othelloQueue = await registerQueue(t, 'othello', ['subscription']);
    const hamletQueue = await registerQueue(t, 'hamlet', ['subscription']);
    await subscribe('othello', { subscriptions: [{ name: 'Rome' }] });
    const [add] = await eventsOf(t, 'othello', othelloQueue);
    expect(add).toMatchObject({ type: 'subscription', op: 'add' });
    expect(add.subscriptions[0]).toMatchObject({ stream_id: streamId(t, 'Rome'), name: 'Rome' });
    expect(add.subscriptions[0].subscribers).toContain(id('othello'));
    const [peer] = await eventsOf(t, 'hamlet', hamletQueue);
    expect(peer).toMatchObject({
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [streamId(t, 'Rome')],
      user_ids: [id('othello')],
    });
  });

  it('keys the maps by email address before feature level 207', async () => {
    const r = await t
      .as('othello', { 'X-Mock-Feature-Level': '206' })
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'Rome' }, { name: 'Denmark' }] });
    expect(r.body.subscribed).toEqual({ 'othello@zulip.com': ['Rome'] });
    expect(r.body.already_subscribed).toEqual({ 'othello@zulip.com': ['Denmark'] });
  });

  it('refuses guests', async () => {
    expectError(
      await subscribe('polonius', { subscriptions: [{ name: 'Wales' }] }),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
    expect(isSubscribed('polonius', 'Wales')).toBe(false);
  });

  it('refuses an empty channel name and a missing list', async () => {
    expectError(
      await subscribe('hamlet', { subscriptions: [{ name: '  ' }] }),
      400,
      'BAD_REQUEST',
      "Channel name can't be empty.",
    );
    expectError(await subscribe('hamlet', {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'subscriptions' argument");
  });
});

describe('channels the caller cannot read', () => {
  it('fails the request by default', async () => {
    const r = await subscribe('othello', { subscriptions: [{ name: 'Rome' }, { name: 'core team' }] });
    expectError(r, 400, 'BAD_REQUEST', 'Unable to access channel (core team).');
    expect(isSubscribed('othello', 'Rome')).toBe(false);
    expect(isSubscribed('othello', 'core team')).toBe(false);
  });

  it('skips them and lists them in unauthorized when authorization_errors_fatal is false', async () => {
    const r = await subscribe('othello', {
      subscriptions: [{ name: 'Rome' }, { name: 'core team' }],
      authorization_errors_fatal: false,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ subscribed: { [String(id('othello'))]: ['Rome'] }, unauthorized: ['core team'] });
    expect(isSubscribed('othello', 'core team')).toBe(false);
  });

  it('treats archived channels as inaccessible', async () => {
    expectError(
      await subscribe('othello', { subscriptions: [{ name: 'Old Rome' }] }),
      400,
      'BAD_REQUEST',
      'Unable to access channel (Old Rome).',
    );
  });

  it('lets holders of can_subscribe_group join a private channel', async () => {
    const core = store().streams.get(streamId(t, 'core team'))!;
    store().streams.update(core, { can_subscribe_group: { direct_members: [id('othello')], direct_subgroups: [] } });
    expect((await subscribe('othello', { subscriptions: [{ name: 'core team' }] })).status).toBe(200);
    expect(isSubscribed('othello', 'core team')).toBe(true);
  });
});

describe('subscribing others', () => {
  it('subscribes the principals (IDs or emails) and sends them a notification bot message', async () => {
    const r = await subscribe('hamlet', {
      subscriptions: [{ name: 'Rome' }],
      principals: [id('othello'), id('aaron'), id('prospero')],
    });
    expect(r.body.subscribed).toEqual({ [String(id('othello'))]: ['Rome'], [String(id('aaron'))]: ['Rome'] });
    expect(r.body.already_subscribed).toEqual({ [String(id('prospero'))]: ['Rome'] });
    expect(isSubscribed('othello', 'Rome') && isSubscribed('aaron', 'Rome')).toBe(true);
    const byEmail = await subscribe('hamlet', {
      subscriptions: [{ name: 'Scotland' }],
      principals: ['prospero@zulip.com'],
    });
    expect(byEmail.body.subscribed).toEqual({ [String(id('prospero'))]: ['Scotland'] });

    const dm = store().messages.filter(
      (m) =>
        m.type === 'private' &&
        m.sender_id === store().realm.notification_bot_id &&
        m.recipient_ids.includes(id('othello')),
    );
    expect(dm.map((m) => m.content)).toEqual([`@_**King Hamlet|${id('hamlet')}** subscribed you to #**Rome**.`]);
    // No message to the caller about their own subscriptions, nor to bots.
    await subscribe('hamlet', { subscriptions: [{ name: 'Rome' }], principals: [id('hamlet'), id('iago-bot')] });
    expect(
      store().messages.filter(
        (m) => m.sender_id === store().realm.notification_bot_id && m.recipient_ids.includes(id('iago-bot')),
      ),
    ).toEqual([]);
  });

  it('lists several channels in one notification message', async () => {
    await subscribe('hamlet', {
      subscriptions: [{ name: 'Verona' }, { name: 'Denmark' }, { name: 'Rome' }, { name: 'Scotland' }],
      principals: [id('aaron')],
    });
    const dm = store().messages.filter(
      (m) =>
        m.sender_id === store().realm.notification_bot_id &&
        m.recipient_ids.includes(id('aaron')) &&
        m.type === 'private',
    );
    // Denmark is left out: aaron was subscribed already.
    expect(dm.map((m) => m.content)).toEqual([
      `@_**King Hamlet|${id('hamlet')}** subscribed you to the following channels:\n\n* #**Rome**\n* #**Scotland**\n* #**Verona**`,
    ]);
  });

  it('needs can_add_subscribers_group (organization or channel) or the right to administer the channel', async () => {
    store().updateRealm({ can_add_subscribers_group: systemGroupId(store(), 'role:administrators') });
    expectError(
      await subscribe('hamlet', { subscriptions: [{ name: 'Scotland' }], principals: [id('prospero')] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect(isSubscribed('prospero', 'Scotland')).toBe(false);
    // hamlet administers Rome.
    expect((await subscribe('hamlet', { subscriptions: [{ name: 'Rome' }], principals: [id('aaron')] })).status).toBe(
      200,
    );
    expect(isSubscribed('aaron', 'Rome')).toBe(true);
    const scotland = store().streams.get(streamId(t, 'Scotland'))!;
    store().streams.update(scotland, {
      can_add_subscribers_group: { direct_members: [id('hamlet')], direct_subgroups: [] },
    });
    expect(
      (await subscribe('hamlet', { subscriptions: [{ name: 'Scotland' }], principals: [id('prospero')] })).status,
    ).toBe(200);
    expect(isSubscribed('prospero', 'Scotland')).toBe(true);
    // Administrators always may.
    expect((await subscribe('iago', { subscriptions: [{ name: 'Verona' }], principals: [id('aaron')] })).status).toBe(
      200,
    );
    expect(isSubscribed('aaron', 'Verona')).toBe(true);
  });

  it('does not need the permission when the only principal is the caller', async () => {
    store().updateRealm({ can_add_subscribers_group: systemGroupId(store(), 'role:administrators') });
    expect(
      (await subscribe('othello', { subscriptions: [{ name: 'Rome' }], principals: [id('othello')] })).status,
    ).toBe(200);
  });

  it('refuses unknown and deactivated principals', async () => {
    expectError(
      await subscribe('hamlet', { subscriptions: [{ name: 'Rome' }], principals: [9999] }),
      400,
      'BAD_REQUEST',
      'No such user',
    );
    expectError(
      await subscribe('hamlet', { subscriptions: [{ name: 'Rome' }], principals: ['nobody@zulip.com'] }),
      400,
      'BAD_REQUEST',
      'No such user',
    );
    expectError(
      await subscribe('hamlet', { subscriptions: [{ name: 'Rome' }], principals: [id('ariel')] }),
      400,
      'BAD_REQUEST',
      'User is deactivated',
    );
  });

  it('introduces the channel (stream create) to a guest who could not see it before', async () => {
    const seen = watchEvents(t);
    await subscribe('hamlet', { subscriptions: [{ name: 'Denmark' }], principals: [id('polonius')] });
    const forGuest = seen.filter((s) => s.users.includes(id('polonius'))).map((s) => `${s.event.type}/${s.event.op}`);
    expect(forGuest.slice(0, 2)).toEqual(['stream/create', 'subscription/add']);
  });
});

describe('creating channels by name', () => {
  it('creates a channel that does not exist, with the description and the creation parameters', async () => {
    const r = await subscribe('hamlet', {
      subscriptions: [{ name: 'Kyoto', description: 'Japan\nold capital' }],
      invite_only: true,
      history_public_to_subscribers: true,
    });
    expect(r.status).toBe(200);
    expect(r.body.subscribed).toEqual({ [String(id('hamlet'))]: ['Kyoto'] });
    const kyoto = store().streams.by('name', 'kyoto')!;
    expect(kyoto).toMatchObject({
      description: 'Japan old capital',
      invite_only: true,
      history_public_to_subscribers: true,
      creator_id: id('hamlet'),
    });
    expect(await subscriptionOf(t.as('hamlet'), kyoto.stream_id)).toMatchObject({ name: 'Kyoto', invite_only: true });
  });

  it('subscribes the principals, not the caller, to a channel it creates, and tells them about it', async () => {
    const seen = watchEvents(t);
    await subscribe('hamlet', { subscriptions: [{ name: 'Secret' }], invite_only: true, principals: [id('othello')] });
    const secret = store().streams.by('name', 'secret')!;
    expect(isSubscribed('othello', 'Secret')).toBe(true);
    expect(isSubscribed('hamlet', 'Secret')).toBe(false);
    const forOthello = seen.filter((s) => s.users.includes(id('othello'))).map((s) => `${s.event.type}/${s.event.op}`);
    expect(forOthello).toEqual(['stream/create', 'subscription/add']);
    // New channels get no "subscribed you" message.
    expect(
      store().messages.filter(
        (m) => m.type === 'private' && m.recipient_ids.includes(id('othello')) && m.content.includes('Secret'),
      ),
    ).toEqual([]);
    expect(secret.invite_only).toBe(true);
  });

  it('announces the created channels with announce', async () => {
    await subscribe('hamlet', {
      subscriptions: [{ name: 'Kyoto' }, { name: 'Osaka' }, { name: 'Denmark' }],
      announce: true,
    });
    const verona = store().realm.new_stream_announcements_stream_id!;
    const notice = store().messages.filter((m) => m.stream_id === verona && m.topic === 'new channels');
    expect(notice.map((m) => m.content)).toEqual([
      `@_**King Hamlet|${id('hamlet')}** created the following channels: #**Kyoto**, #**Osaka**.`,
    ]);
    await subscribe('hamlet', { subscriptions: [{ name: 'Nara' }], announce: true });
    expect(
      store()
        .messages.filter((m) => m.stream_id === verona && m.topic === 'new channels')
        .at(-1)!.content,
    ).toBe(`@_**King Hamlet|${id('hamlet')}** created a new channel #**Nara**.`);
  });

  it('applies the channel creation permissions and creates nothing when refused', async () => {
    store().updateRealm({ can_create_public_channel_group: systemGroupId(store(), 'role:administrators') });
    expectError(
      await subscribe('hamlet', { subscriptions: [{ name: 'Kyoto' }] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect(store().streams.by('name', 'kyoto')).toBeUndefined();
    expectError(
      await subscribe('hamlet', { subscriptions: [{ name: 'Kyoto' }], invite_only: true, is_default_stream: true }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await subscribe('iago', { subscriptions: [{ name: 'Kyoto' }], invite_only: true, is_default_stream: true }),
      400,
      'BAD_REQUEST',
      'A default channel cannot be private.',
    );
    expectError(
      await subscribe('iago', { subscriptions: [{ name: 'Kyoto' }], folder_id: 99 }),
      400,
      'BAD_REQUEST',
      'Invalid channel folder ID',
    );
    // Setting a topics policy needs can_set_topics_policy_group (members in the dev organization).
    store().updateRealm({
      shown_settings: {
        ...store().realm.shown_settings,
        can_set_topics_policy_group: systemGroupId(store(), 'role:administrators'),
      },
    });
    // (at 511 whatever level the suite runs at: the parameter is new at 392)
    expectError(
      await t.as('hamlet', { 'X-Mock-Feature-Level': '511' }).post('/users/me/subscriptions', {
        subscriptions: [{ name: 'Kyoto' }],
        invite_only: true,
        topics_policy: 'allow_empty_topic',
      }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect(store().streams.by('name', 'kyoto')).toBeUndefined();
  });

  it('takes topics_policy from FL 392; below it the parameter is unknown and new channels inherit', async () => {
    store().updateRealm({
      shown_settings: {
        ...store().realm.shown_settings,
        can_set_topics_policy_group: systemGroupId(store(), 'role:administrators'),
      },
    });
    const at = (n: number) => t.as('hamlet', { 'X-Mock-Feature-Level': String(n) });
    const params = { subscriptions: [{ name: 'Kyoto' }], topics_policy: 'empty_topic_only' };
    const old = await at(391).post('/users/me/subscriptions', params);
    expect(old.status).toBe(200);
    expect(old.body.ignored_parameters_unsupported).toEqual(['topics_policy']);
    const kyoto = store().streams.by('name', 'kyoto')!;
    expect(kyoto.topics_policy).toBe('inherit');
    const read = await at(511).get(`/streams/${kyoto.stream_id}`);
    expect(read.body.stream.topics_policy).toBe('inherit');
    expectError(
      await at(392).post('/users/me/subscriptions', { ...params, subscriptions: [{ name: 'Osaka' }] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
  });
});

describe('notices to new subscribers (FL 397)', () => {
  const dmsTo = (who: string) =>
    store().messages.filter(
      (m) => m.type === 'private' && m.recipient_ids.includes(id(who)) && m.sender_id !== id(who),
    );

  it('sends none when asked not to, and then says nothing of them', async () => {
    const before = dmsTo('othello').length;
    const r = await t.as('iago', { 'X-Mock-Feature-Level': '511' }).post('/users/me/subscriptions', {
      subscriptions: [{ name: 'Rome' }],
      principals: [id('othello')],
      send_new_subscription_messages: false,
    });
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty('new_subscription_messages_sent');
    expect(dmsTo('othello').length).toBe(before);
  });

  it('sends none when the request subscribes more users than max_bulk_new_subscription_messages', async () => {
    const newest = { 'X-Mock-Feature-Level': '511' };
    const max = (await t.as('iago', newest).post('/register', { fetch_event_types: ['realm'] })).body
      .max_bulk_new_subscription_messages as number;
    const ids: number[] = [];
    for (let i = 0; i < max; i++) {
      const r = await t
        .as('iago', newest)
        .post('/users', { email: `bulk${i}@zulip.com`, password: 'long enough', full_name: `Bulk ${i}` });
      ids.push(r.body.user_id);
    }
    // Othello besides: max + 1 people newly subscribed.
    const before = dmsTo('othello').length;
    const r = await t
      .as('iago', newest)
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'Rome' }], principals: [...ids, id('othello')] });
    expect(Object.keys(r.body.subscribed)).toHaveLength(max + 1);
    expect(r.body.new_subscription_messages_sent).toBe(false);
    expect(dmsTo('othello').length).toBe(before);
  });
});

describe("the notification bot's wording before FL 255 (behaviour channel_wording)", () => {
  const at = (n: number) => t.as('hamlet', { 'X-Mock-Feature-Level': String(n) });
  const botDmsTo = (who: string) =>
    store()
      .messages.filter(
        (m) =>
          m.type === 'private' &&
          m.sender_id === store().realm.notification_bot_id &&
          m.recipient_ids.includes(id(who)),
      )
      .map((m) => m.content);

  it('says "stream" at 254 and "channel" at 255 in the announcement and the subscribed-you notices', async () => {
    const verona = store().realm.new_stream_announcements_stream_id!;
    const announced = (topic: string) =>
      store()
        .messages.filter((m) => m.stream_id === verona && m.topic === topic)
        .map((m) => m.content);
    const hamlet = `@_**King Hamlet|${id('hamlet')}**`;
    await at(254).post('/users/me/subscriptions', { subscriptions: [{ name: 'Kyoto' }], announce: true });
    await at(254).post('/users/me/subscriptions', {
      subscriptions: [{ name: 'Osaka' }, { name: 'Nara' }],
      announce: true,
    });
    expect(announced('new streams')).toEqual([
      `${hamlet} created a new stream #**Kyoto**.`,
      `${hamlet} created the following streams: #**Osaka**, #**Nara**.`,
    ]);
    await at(255).post('/users/me/subscriptions', { subscriptions: [{ name: 'Sapporo' }], announce: true });
    expect(announced('new channels')).toEqual([`${hamlet} created a new channel #**Sapporo**.`]);

    await at(254).post('/users/me/subscriptions', { subscriptions: [{ name: 'Rome' }], principals: [id('othello')] });
    await at(254).post('/users/me/subscriptions', {
      subscriptions: [{ name: 'Osaka' }, { name: 'Nara' }],
      principals: [id('othello')],
    });
    await at(255).post('/users/me/subscriptions', { subscriptions: [{ name: 'Kyoto' }], principals: [id('othello')] });
    expect(botDmsTo('othello')).toEqual([
      `${hamlet} subscribed you to the stream #**Rome**.`,
      `${hamlet} subscribed you to the following streams:\n\n* #**Nara**\n* #**Osaka**`,
      `${hamlet} subscribed you to #**Kyoto**.`,
    ]);
  });
});
