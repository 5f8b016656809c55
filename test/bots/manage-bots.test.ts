// Bot management through HTTP: GET /bots, POST /bots, PATCH /bots/{bot_id}, new API keys; the
// real server's permissions and wording, state read back, and the realm_bot / realm_user events.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { systemGroupId } from '../../src/domain/group-settings/membership.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const store = () => t.server.world.store;
const id = (who: string) => t.user(who).user_id;
const setGroupSetting = (name: string, value: number) => {
  const realm = store().realm as unknown as Record<string, any>;
  if (name in realm) realm[name] = value;
  else realm.shown_settings[name] = value;
};

describe('GET /bots', () => {
  it("lists only the caller's own active bots, administrators included", async () => {
    const r = await t.as('hamlet').get('/bots');
    expect(r.status).toBe(200);
    expect(r.body.bots).toEqual([
      expect.objectContaining({
        username: 'hamlet-bot@zulip.com',
        full_name: "Hamlet's Bot",
        api_key: t.user('hamlet-bot').api_key,
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      }),
    ]);
    expect((await t.as('iago').get('/bots')).body.bots.map((b: any) => b.username)).toEqual(['iago-bot@zulip.com']);
    expect((await t.as('othello').get('/bots')).body.bots).toEqual([]);
  });

  it('refuses guests', async () => {
    expectError(await t.as('polonius').get('/bots'), 400, 'BAD_REQUEST', 'Not allowed for guest users');
  });
});

describe('POST /bots', () => {
  it('creates a bot owned by the caller, usable at once, listed and told to the right queues', async () => {
    const hamletQ = await registerQueue(t, 'hamlet', ['realm_user', 'realm_bot']);
    const othelloQ = await registerQueue(t, 'othello', ['realm_user', 'realm_bot']);
    const iagoQ = await registerQueue(t, 'iago', ['realm_bot']);
    const r = await t
      .as('hamlet')
      .post('/bots', { full_name: 'Ticket Bot', short_name: 'tickets', default_sending_stream: 'Denmark' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      result: 'success',
      default_sending_stream: 'Denmark',
      default_events_register_stream: null,
      default_all_public_streams: false,
    });
    expect(r.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    const botId = r.body.user_id;

    const listed = (await t.as('hamlet').get('/bots')).body.bots;
    expect(listed.map((b: any) => b.username)).toEqual(['hamlet-bot@zulip.com', 'tickets-bot@zulip.com']);
    const user = (await t.as('othello').get(`/users/${botId}`)).body.user;
    expect(user).toMatchObject({
      email: 'tickets-bot@zulip.com',
      full_name: 'Ticket Bot',
      is_bot: true,
      bot_type: 1,
      bot_owner_id: id('hamlet'),
    });
    // A member like any new account: in role:members, so that group-based permissions apply to it.
    expect(store().userGroups.get(systemGroupId(store(), 'role:members'))!.direct_members).toContain(botId);
    // The new key works.
    const me = await fetch(`${t.base}/api/v1/users/me`, {
      headers: { authorization: `Basic ${Buffer.from(`tickets-bot@zulip.com:${r.body.api_key}`).toString('base64')}` },
    });
    expect(me.status).toBe(200);

    const othelloEvents = await eventsOf(t, 'othello', othelloQ);
    expect(othelloEvents).toEqual([
      expect.objectContaining({
        type: 'realm_user',
        op: 'add',
        person: expect.objectContaining({ user_id: botId, is_bot: true }),
      }),
    ]);
    // From FL 474 the bot objects carry only the defaults and the service (the rest is in realm_user).
    const ownerBotEvent = (await eventsOf(t, 'hamlet', hamletQ)).find((e) => e.type === 'realm_bot');
    expect(ownerBotEvent).toEqual({
      id: expect.any(Number),
      type: 'realm_bot',
      op: 'add',
      bot: {
        user_id: botId,
        default_sending_stream: 'Denmark',
        default_events_register_stream: null,
        default_all_public_streams: false,
        services: [],
      },
    });
    expect((await eventsOf(t, 'iago', iagoQ)).map((e) => [e.type, e.op])).toEqual([['realm_bot', 'add']]);
    // Register shows the same bot to its owner.
    const reg = await t.as('hamlet').post('/register', { fetch_event_types: ['realm_bot'] });
    expect(reg.body.realm_bots.find((b: any) => b.user_id === botId)).toEqual(ownerBotEvent.bot);
  });

  it('follows can_create_bots_group and, for incoming webhooks, can_create_write_only_bots_group', async () => {
    setGroupSetting('can_create_bots_group', 3); // administrators
    expectError(
      await t.as('hamlet').post('/bots', { full_name: 'Generic', short_name: 'generic' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await t.as('hamlet').post('/bots', {
        full_name: 'Out',
        short_name: 'out',
        bot_type: 3,
        payload_url: JSON.stringify('https://x.example'),
      }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    const hook = await t.as('hamlet').post('/bots', { full_name: 'Hook', short_name: 'hook', bot_type: 2 });
    expect(hook.status).toBe(200);
    setGroupSetting('can_create_write_only_bots_group', 3);
    expectError(
      await t.as('hamlet').post('/bots', { full_name: 'Hook 2', short_name: 'hook2', bot_type: 2 }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect((await t.as('iago').post('/bots', { full_name: 'Admin bot', short_name: 'adminbot' })).status).toBe(200);
    expect(store().users.by('email', 'generic-bot@zulip.com')).toBeUndefined();
  });

  it('refuses a taken username, a taken bot name, an empty short name, a bad channel and guests', async () => {
    expectError(
      await t.as('hamlet').post('/bots', { full_name: 'Another', short_name: 'hamlet' }),
      400,
      'BAD_REQUEST',
      'Username already in use',
    );
    expectError(
      await t.as('hamlet').post('/bots', { full_name: "Iago's Bot", short_name: 'fresh' }),
      400,
      'BAD_REQUEST',
      'Name is already in use.',
    );
    // A person's name is taken too; the comparison is exact.
    expectError(
      await t.as('hamlet').post('/bots', { full_name: 'Othello, the Moor of Venice', short_name: 'fresh' }),
      400,
      'BAD_REQUEST',
      'Name is already in use.',
    );
    expect((await t.as('hamlet').post('/bots', { full_name: "iago's bot", short_name: 'lower' })).status).toBe(200);
    expectError(
      await t.as('hamlet').post('/bots', { full_name: 'Fresh', short_name: '  ' }),
      400,
      'BAD_REQUEST',
      'Bad name or username',
    );
    expectError(
      await t
        .as('hamlet')
        .post('/bots', { full_name: 'Fresh', short_name: 'fresh', default_sending_stream: 'nowhere' }),
      400,
      'BAD_REQUEST',
      "Invalid channel name 'nowhere'",
    );
    expectError(
      await t.as('polonius').post('/bots', { full_name: 'Fresh', short_name: 'fresh' }),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
    expect(store().users.by('email', 'fresh-bot@zulip.com')).toBeUndefined();
  });
});

describe('PATCH /bots/{bot_id}', () => {
  it('lets the owner rename the bot and set its default channels; everyone learns the name', async () => {
    const botId = id('hamlet-bot');
    const othelloQ = await registerQueue(t, 'othello', ['realm_user', 'realm_bot']);
    const hamletQ = await registerQueue(t, 'hamlet', ['realm_bot']);
    const r = await t.as('hamlet').patch(`/bots/${botId}`, {
      full_name: 'Yorick',
      default_sending_stream: 'Verona',
      default_all_public_streams: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      full_name: 'Yorick',
      default_sending_stream: 'Verona',
      default_events_register_stream: null,
      default_all_public_streams: true,
      bot_owner: 'hamlet@zulip.com',
    });
    expect((await t.as('hamlet').get('/bots')).body.bots[0]).toMatchObject({
      full_name: 'Yorick',
      default_sending_stream: 'Verona',
      default_all_public_streams: true,
    });
    expect(await eventsOf(t, 'othello', othelloQ)).toEqual([
      { id: expect.any(Number), type: 'realm_user', op: 'update', person: { user_id: botId, full_name: 'Yorick' } },
    ]);
    // The name reaches the owner as realm_user only from FL 474 (see the FL 473 test below).
    expect((await eventsOf(t, 'hamlet', hamletQ)).map((e) => e.bot)).toEqual([
      { user_id: botId, default_sending_stream: 'Verona' },
      { user_id: botId, default_all_public_streams: true },
    ]);
    // An empty name clears a default channel.
    await t.as('hamlet').patch(`/bots/${botId}`, { default_sending_stream: '' });
    expect((await t.as('hamlet').get('/bots')).body.bots[0].default_sending_stream).toBeNull();
  });

  it('moves a bot to a new owner (an administrator may), who then lists it', async () => {
    const botId = id('hamlet-bot');
    const hamletQ = await registerQueue(t, 'hamlet', ['realm_bot']);
    const othelloQ = await registerQueue(t, 'othello', ['realm_bot']);
    const r = await t.as('iago').patch(`/bots/${botId}`, { bot_owner_id: id('othello') });
    expect(r.body.bot_owner).toBe('othello@zulip.com');
    expect((await t.as('othello').get('/bots')).body.bots.map((b: any) => b.username)).toEqual([
      'hamlet-bot@zulip.com',
    ]);
    expect((await t.as('hamlet').get('/bots')).body.bots).toEqual([]);
    expect(await eventsOf(t, 'hamlet', hamletQ)).toMatchObject([
      { type: 'realm_bot', op: 'delete', bot: { user_id: botId } },
    ]);
    expect(await eventsOf(t, 'othello', othelloQ)).toMatchObject([
      { type: 'realm_bot', op: 'add', bot: { user_id: botId, services: [] } },
    ]);
  });

  it("refuses someone else's bot, an unknown bot and bad owners, changing nothing", async () => {
    const botId = id('hamlet-bot');
    expectError(
      await t.as('othello').patch(`/bots/${botId}`, { full_name: 'Mine' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(await t.as('hamlet').patch('/bots/9999', { full_name: 'Mine' }), 400, 'BAD_REQUEST', 'No such bot');
    expectError(
      await t.as('hamlet').patch(`/bots/${botId}`, { bot_owner_id: 9999 }),
      400,
      'BAD_REQUEST',
      'Failed to change owner, no such user',
    );
    expectError(
      await t.as('hamlet').patch(`/bots/${botId}`, { bot_owner_id: id('ariel') }),
      400,
      'BAD_REQUEST',
      'Failed to change owner, user is deactivated',
    );
    expectError(
      await t.as('hamlet').patch(`/bots/${botId}`, { full_name: 'Renamed', bot_owner_id: id('iago-bot') }),
      400,
      'BAD_REQUEST',
      "Failed to change owner, bots can't own other bots",
    );
    expect(t.user('hamlet-bot')).toMatchObject({ full_name: "Hamlet's Bot", bot_owner_id: id('hamlet') });
  });
});

describe('API keys', () => {
  it('gives a bot a new key that replaces the old one (its owner may, others may not)', async () => {
    const botId = id('hamlet-bot');
    const old = t.user('hamlet-bot').api_key;
    const hamletQ = await registerQueue(t, 'hamlet', ['realm_bot']);
    expectError(
      await t.as('othello').post(`/bots/${botId}/api_key/regenerate`),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    const r = await t.as('hamlet').post(`/bots/${botId}/api_key/regenerate`);
    expect(r.status).toBe(200);
    expect(r.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(r.body.api_key).not.toBe(old);
    expect((await t.as('hamlet').get('/bots')).body.bots[0].api_key).toBe(r.body.api_key);
    const withOld = await fetch(`${t.base}/api/v1/users/me`, {
      headers: { authorization: `Basic ${Buffer.from(`hamlet-bot@zulip.com:${old}`).toString('base64')}` },
    });
    expect(withOld.status).toBe(401);
    // Only queues older than FL 474 hear of a new key (see below).
    expect(await eventsOf(t, 'hamlet', hamletQ)).toEqual([]);
  });

  it('gives a person a new key of their own and refuses bots', async () => {
    const old = t.user('othello').api_key;
    const r = await t.as('othello').post('/users/me/api_key/regenerate');
    expect(r.status).toBe(200);
    expect(r.body.api_key).not.toBe(old);
    expect(t.user('othello').api_key).toBe(r.body.api_key);
    expectError(
      await t.as('hamlet-bot').post('/users/me/api_key/regenerate'),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });
});
