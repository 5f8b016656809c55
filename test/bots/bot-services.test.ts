// Service bots through HTTP: outgoing webhook (3), embedded (4) and incoming webhook (2) bots
// created and changed, their services in register's realm_bots and in realm_bot events, the real
// server's refusals with their wording, and the bot objects of queues older than FL 474.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';

let t: TestServer;
// The hosts these tests name are allowed: the loopback rule has tests of its own (outgoing-webhooks.test.ts).
beforeAll(async () => {
  t = await startTestServer({ allowOutgoing: ['foo.bar.com', 'foo.bar2.com', 'ok.example'] });
});
beforeEach(() => t.server.world.reset());
afterAll(async () => {
  await t.close();
});

const url = (u: string) => JSON.stringify(u);
const realmBot = async (who: string, botId: number, level?: number) => {
  const headers: Record<string, string> = level === undefined ? {} : { 'X-Mock-Feature-Level': String(level) };
  const r = await t.as(who, headers).post('/register', { fetch_event_types: ['realm_bot'] });
  return r.body.realm_bots.find((b: any) => b.user_id === botId);
};
const create = (params: Record<string, unknown>) =>
  t.as('hamlet').post('/bots', { full_name: 'Service', short_name: 'service', ...params });

describe('outgoing webhook bots', () => {
  it('get a service posting to payload_url in the chosen format, with a token of their own', async () => {
    const q = await registerQueue(t, 'hamlet', ['realm_bot']);
    const r = await create({ bot_type: 3, payload_url: url('http://127.0.0.1:5002/hook'), interface_type: 2 });
    expect(r.status).toBe(200);
    const bot = await realmBot('hamlet', r.body.user_id);
    expect(bot.services).toEqual([
      { base_url: 'http://127.0.0.1:5002/hook', interface: 2, token: expect.stringMatching(/^[A-Za-z0-9]{32}$/) },
    ]);
    expect(bot.services[0].token).not.toBe(r.body.api_key);
    expect((await eventsOf(t, 'hamlet', q))[0].bot.services).toEqual(bot.services);
    expect((await t.as('othello').get(`/users/${r.body.user_id}`)).body.user).toMatchObject({
      bot_type: 3,
      bot_owner_id: t.user('hamlet').user_id,
    });
  });

  it('change their URL and format with PATCH: realm_bot update with the whole service, the answer echoing what was given', async () => {
    const botId = (await create({ bot_type: 3, payload_url: url('http://foo.bar.com') })).body.user_id;
    const token = (await realmBot('hamlet', botId)).services[0].token;
    const q = await registerQueue(t, 'hamlet', ['realm_bot']);
    const r = await t
      .as('hamlet')
      .patch(`/bots/${botId}`, { service_payload_url: url('http://foo.bar2.com'), service_interface: 2 });
    expect(r.body).toMatchObject({
      service_interface: 2,
      service_payload_url: 'http://foo.bar2.com',
      config_data: null,
    });
    const services = [{ base_url: 'http://foo.bar2.com', interface: 2, token }];
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      { id: 0, type: 'realm_bot', op: 'update', bot: { user_id: botId, services } },
    ]);
    expect((await realmBot('hamlet', botId)).services).toEqual(services);
    // The same again changes nothing.
    await t
      .as('hamlet')
      .patch(`/bots/${botId}`, { service_payload_url: url('http://foo.bar2.com'), service_interface: 2 });
    expect(await eventsOf(t, 'hamlet', q)).toHaveLength(1);
    // service_interface alone is not looked at: echoed, not checked, not stored.
    const alone = await t.as('hamlet').patch(`/bots/${botId}`, { service_interface: 5 });
    expect(alone.body).toMatchObject({ service_interface: 5, service_payload_url: null });
    expect((await realmBot('hamlet', botId)).services).toEqual(services);
  });

  it('refuses a URL that is none, a format that does not exist, and (as an internal error) a service change of a bot without one', async () => {
    expectError(
      await create({ bot_type: 3, payload_url: url('http://127.0.0.:5002') }),
      400,
      'BAD_REQUEST',
      'payload_url is not a URL',
    );
    expectError(
      await create({ bot_type: 3, payload_url: url('javascript:alert(1)') }),
      400,
      'BAD_REQUEST',
      'payload_url is not a URL',
    );
    expectError(
      await create({ bot_type: 3, payload_url: 'http://not-json.example' }),
      400,
      'BAD_REQUEST',
      'payload_url is not valid JSON',
    );
    expectError(
      await create({ bot_type: 3, payload_url: url('http://ok.example'), interface_type: -1 }),
      400,
      'BAD_REQUEST',
      'Invalid interface type',
    );
    expectError(await create({ bot_type: 7 }), 400, 'BAD_REQUEST', 'Invalid bot type');
    const botId = (await create({ bot_type: 3, payload_url: url('http://ok.example') })).body.user_id;
    expectError(
      await t.as('hamlet').patch(`/bots/${botId}`, { service_payload_url: url('ftp://') }),
      400,
      'BAD_REQUEST',
      'service_payload_url is not a URL',
    );
    expectError(
      await t
        .as('hamlet')
        .patch(`/bots/${botId}`, { service_payload_url: url('https://ok.example'), service_interface: 3 }),
      400,
      'BAD_REQUEST',
      'Invalid interface type',
    );
    const generic = t.user('hamlet-bot').user_id;
    const r = await t
      .as('hamlet')
      .patch(`/bots/${generic}`, { full_name: 'Renamed', service_payload_url: url('https://ok.example') });
    expect(r.status).toBe(500);
    expect(t.user('hamlet-bot').full_name).toBe("Hamlet's Bot");
  });
});

describe('embedded bots', () => {
  it("run one of the server's bots with its configuration; services show once there is configuration", async () => {
    const r = await create({
      bot_type: 4,
      service_name: 'followup',
      config_data: JSON.stringify({ stream: 'followup' }),
    });
    expect(r.status).toBe(200);
    expect((await realmBot('hamlet', r.body.user_id)).services).toEqual([
      { config_data: { stream: 'followup' }, service_name: 'followup' },
    ]);
    // No service_name: the short name names the bot to run; no configuration: no services shown.
    const bare = await t.as('hamlet').post('/bots', { full_name: 'Converter', short_name: 'converter', bot_type: 4 });
    expect(bare.status).toBe(200);
    expect((await realmBot('hamlet', bare.body.user_id)).services).toEqual([]);
  });

  it('take configuration keys with PATCH (added or replaced): realm_bot update with the whole configuration', async () => {
    const botId = (
      await create({ bot_type: 4, service_name: 'giphy', config_data: JSON.stringify({ key: '12345678' }) })
    ).body.user_id;
    const q = await registerQueue(t, 'hamlet', ['realm_bot']);
    const r = await t
      .as('hamlet')
      .patch(`/bots/${botId}`, { config_data: JSON.stringify({ key: '87654321', extra: 'x' }) });
    expect(r.body).toMatchObject({
      config_data: { key: '87654321', extra: 'x' },
      service_interface: 1,
      service_payload_url: null,
    });
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      {
        id: 0,
        type: 'realm_bot',
        op: 'update',
        bot: { user_id: botId, services: [{ config_data: { key: '87654321', extra: 'x' } }] },
      },
    ]);
    expect((await realmBot('hamlet', botId)).services).toEqual([
      { config_data: { key: '87654321', extra: 'x' }, service_name: 'giphy' },
    ]);
  });

  it('refuses a bot the server does not have and configuration values that are not strings', async () => {
    expectError(
      await create({ bot_type: 4, service_name: 'not_existing_service' }),
      400,
      'BAD_REQUEST',
      'Invalid embedded bot name.',
    );
    expectError(
      await create({
        bot_type: 4,
        service_name: 'followup',
        config_data: JSON.stringify({ invalid: ['config', 'value'] }),
      }),
      400,
      'BAD_REQUEST',
      'config_data contains a value that is not a string',
    );
    expect(t.server.world.store.users.by('email', 'service-bot@zulip.com')).toBeUndefined();
  });
});

describe('incoming webhook bots', () => {
  it('may name their integration; an unknown one is refused; they have no services', async () => {
    const r = await create({ bot_type: 2, service_name: 'github' });
    expect(r.status).toBe(200);
    expect((await realmBot('hamlet', r.body.user_id)).services).toEqual([]);
    expect(t.server.world.store.users.get(r.body.user_id)!.bot_config).toEqual({ integration_id: 'github' });
    expectError(
      await t
        .as('hamlet')
        .post('/bots', { full_name: 'Other', short_name: 'other', bot_type: 2, service_name: 'nosuch' }),
      400,
      'BAD_REQUEST',
      "Invalid integration 'nosuch'.",
    );
  });
});

describe('bot objects before FL 474', () => {
  const OLD = { 'X-Mock-Feature-Level': '473' };
  const oldQueue = async (who: string) =>
    (await t.as(who, OLD).post('/register', { event_types: ['realm_bot'], fetch_event_types: [] })).body.queue_id;

  it('carry email, name, type, key, avatar and owner; updates of those reach older queues only', async () => {
    const oldQ = await oldQueue('hamlet');
    const newQ = await registerQueue(t, 'hamlet', ['realm_bot']);
    const r = await create({ bot_type: 3, payload_url: url('https://ok.example') });
    const botId = r.body.user_id;
    await t.as('hamlet').patch(`/bots/${botId}`, { full_name: 'Renamed' });
    const key = (await t.as('hamlet').post(`/bots/${botId}/api_key/regenerate`)).body.api_key;
    const old = await eventsOf(t, 'hamlet', oldQ);
    expect(old[0]).toMatchObject({
      op: 'add',
      bot: {
        user_id: botId,
        email: 'service-bot@zulip.com',
        full_name: 'Service',
        bot_type: 3,
        is_active: true,
        api_key: r.body.api_key,
        avatar_url: r.body.avatar_url,
        owner_id: t.user('hamlet').user_id,
        services: [expect.objectContaining({ base_url: 'https://ok.example' })],
      },
    });
    expect(old.slice(1).map((e) => e.bot)).toEqual([
      { user_id: botId, full_name: 'Renamed' },
      { user_id: botId, api_key: key },
    ]);
    expect((await eventsOf(t, 'hamlet', newQ)).map((e) => e.op)).toEqual(['add']);
    expect(Object.keys(await realmBot('hamlet', botId, 473)).sort()).toEqual([
      'api_key',
      'avatar_url',
      'bot_type',
      'default_all_public_streams',
      'default_events_register_stream',
      'default_sending_stream',
      'email',
      'full_name',
      'is_active',
      'owner_id',
      'services',
      'user_id',
    ]);
  });
});
