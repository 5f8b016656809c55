// Rows of the level table that a 10.2 client (feature level 372) meets: each checked just below and
// at its level, through HTTP. Answers at 372 are also held by the reference check (the guard).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { sendToChannel } from '../helpers/messages.js';
import { ControlClient } from '../../src/control/client.js';

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

const at = (level: number, who = 'hamlet') => t.as(who, { 'X-Mock-Feature-Level': String(level) });

describe('channel settings newer than 10.2', () => {
  const settings = {
    396: ['can_move_messages_out_of_channel_group', 'can_move_messages_within_channel_group'],
    402: ['can_resolve_topics_group'],
    407: ['can_delete_any_message_group', 'can_delete_own_message_group'],
    441: ['can_create_topic_group'],
  };
  it.each(Object.entries(settings))(
    'FL %s: absent below it from channels and subscriptions, present from it',
    async (level, fields) => {
      const below = Number(level) - 1;
      const channel = async (l: number) => (await at(l).get('/streams/1')).body.stream;
      const sub = async (l: number) => (await at(l).get('/users/me/subscriptions')).body.subscriptions[0];
      for (const field of fields) {
        expect(await channel(below)).not.toHaveProperty(field);
        expect(await sub(below)).not.toHaveProperty(field);
        expect(await channel(Number(level))).toHaveProperty(field);
        expect(await sub(Number(level))).toHaveProperty(field);
      }
    },
  );
});

describe('POST /register', () => {
  it('FL 392, 410, 481: realm_topics_policy, the channel folder limits and idle_queue_timeout_secs only from their levels', async () => {
    const register = async (l: number) => (await at(l).post('/register', { fetch_event_types: ['realm'] })).body;
    const old = await register(372);
    for (const key of [
      'realm_topics_policy',
      'max_channel_folder_name_length',
      'max_channel_folder_description_length',
      'idle_queue_timeout_secs',
    ]) {
      expect(old).not.toHaveProperty(key);
    }
    expect(await register(392)).toHaveProperty('realm_topics_policy');
    expect(await register(410)).toMatchObject({
      max_channel_folder_name_length: 60,
      max_channel_folder_description_length: 1024,
    });
    expect(await register(480)).not.toHaveProperty('idle_queue_timeout_secs');
    expect(await register(481)).toHaveProperty('idle_queue_timeout_secs', 600);
  });

  it('sends the deprecated policies and the permission settings as 10.2 did, at every level', async () => {
    for (const level of [372, 511]) {
      const r = (await at(level).post('/register', { fetch_event_types: ['realm'] })).body;
      // The fixture's channel creation is open to members; wildcard mentions to administrators.
      expect(r).toMatchObject({
        realm_create_public_stream_policy: expect.any(Number),
        realm_create_private_stream_policy: expect.any(Number),
        realm_create_web_public_stream_policy: expect.any(Number),
        realm_wildcard_mention_policy: expect.any(Number),
      });
      expect(Object.keys(r.server_supported_permission_settings).sort()).toEqual(['group', 'realm', 'stream']);
      expect(r.server_supported_permission_settings.stream.can_administer_channel_group.default_group_name).toBe(
        level >= 427 ? 'channel_creator' : 'stream_creator_or_nobody',
      );
      // Only the settings that exist at the level.
      expect('can_create_topic_group' in r.server_supported_permission_settings.stream).toBe(level >= 441);
    }
  });

  it('the deprecated policies follow the group settings that replaced them', async () => {
    const store = t.server.world.store;
    const group = (name: string) => store.userGroups.find((g) => g.is_system_group && g.name === name)!.id;
    store.updateRealm({
      can_create_public_channel_group: group('role:fullmembers'),
      can_mention_many_users_group: group('role:nobody'),
    });
    const r = (await at(372).post('/register', { fetch_event_types: ['realm'] })).body;
    expect(r).toMatchObject({ realm_create_public_stream_policy: 3, realm_wildcard_mention_policy: 6 });
    // An anonymous group: the widest policy, a superset of who holds the permission.
    store.updateRealm({
      can_create_public_channel_group: { direct_members: [t.user('hamlet').user_id], direct_subgroups: [] },
    });
    expect(
      (await at(372).post('/register', { fetch_event_types: ['realm'] })).body.realm_create_public_stream_policy,
    ).toBe(1);
  });

  it('the limits come with the realm section only; realm_filters is [] whenever asked for, also with nothing named', async () => {
    const none = (await at(372).post('/register', { fetch_event_types: ['alert_words'] })).body;
    expect(none).not.toHaveProperty('max_message_length');
    expect(none).not.toHaveProperty('realm_filters');
    const all = (await at(372).post('/register', {})).body;
    expect(all).toMatchObject({ max_message_length: 10000, realm_filters: [] });
  });

  it('muted_topics: with everything, and without user_topic; not when user_topic is named too', async () => {
    const keys = async (params: Record<string, unknown>) => Object.keys((await at(372).post('/register', params)).body);
    expect(await keys({})).toEqual(expect.arrayContaining(['muted_topics', 'user_topics']));
    expect(await keys({ fetch_event_types: ['muted_topics'] })).toContain('muted_topics');
    expect(await keys({ fetch_event_types: ['muted_topics', 'user_topic'] })).not.toContain('muted_topics');
    // Named through event_types (fetch_event_types absent), the same rule.
    expect(await keys({ event_types: ['muted_topics', 'user_topic'] })).not.toContain('muted_topics');
  });

  it('FL 318 and 403: incoming webhook bots carry config, then config_options, then url_options too', async () => {
    const bots = async (l: number) =>
      (await at(l).post('/register', { fetch_event_types: ['realm_incoming_webhook_bots'] })).body
        .realm_incoming_webhook_bots[0];
    const keys = async (l: number) => Object.keys(await bots(l)).sort();
    expect(await keys(317)).toEqual(['all_event_types', 'config', 'display_name', 'name']);
    expect(await keys(372)).toEqual(['all_event_types', 'config_options', 'display_name', 'name']);
    expect(await keys(402)).toEqual(['all_event_types', 'config_options', 'display_name', 'name']);
    expect(await keys(403)).toEqual(['all_event_types', 'config_options', 'display_name', 'name', 'url_options']);
  });

  it('FL 318-402: the URL options are config_options; from 403 (behaviour webhook_url_options) url_options', async () => {
    const byName = async (l: number) =>
      Object.fromEntries(
        (
          await at(l).post('/register', { fetch_event_types: ['realm_incoming_webhook_bots'] })
        ).body.realm_incoming_webhook_bots.map((b: any) => [b.name, b]),
      );
    const branches = { key: 'branches', label: '', validator: 'check_string' };
    const privateRepos = {
      key: 'ignore_private_repositories',
      label: 'Exclude notifications from private repositories',
      validator: 'check_bool',
    };
    for (const l of [318, 372, 402]) {
      const bots = await byName(l);
      expect(bots.github.config_options).toEqual([
        { key: 'branches', label: 'Filter by branches (comma-separated list)', validator: 'check_string' },
        privateRepos,
      ]);
      expect(bots.gitlab.config_options).toEqual([]);
      expect(bots.jira.config_options).toEqual([]);
    }
    for (const l of [403, 511]) {
      const bots = await byName(l);
      expect(bots.github).toMatchObject({
        config_options: [],
        url_options: [
          branches,
          privateRepos,
          {
            key: 'include_repository_name',
            label: 'Include repository name in the notifications',
            validator: 'check_bool',
          },
        ],
      });
      expect(bots.gitlab).toMatchObject({ config_options: [], url_options: [branches] });
      expect(bots.jira).toMatchObject({ config_options: [], url_options: [] });
    }
    expect((await byName(317)).github.config).toEqual({});
  });
});

describe('linkifiers', () => {
  it('FL 471: example_input and reverse_template only from it; alternative_url_templates from 478', async () => {
    const first = async (l: number) => (await at(l).get('/realm/linkifiers')).body.linkifiers[0];
    const old = await first(470);
    expect(Object.keys(old).sort()).toEqual(['id', 'pattern', 'url_template']);
    expect(await first(471)).toMatchObject({ example_input: expect.anything() });
    expect(await first(471)).toHaveProperty('reverse_template');
    expect(await first(477)).not.toHaveProperty('alternative_url_templates');
    expect(await first(478)).toMatchObject({ alternative_url_templates: expect.any(Array) });
  });
});

describe('emoji names (behaviour emoji_smile_renamed, FL 421)', () => {
  it('before it, smile is 1f642 and 1f604 is big_smile; from it, smile is 1f604 and slight_smile 1f642', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'smiles', 'hi');
    const react = (l: number, who: string, params: Record<string, unknown>) =>
      at(l, who).post(`/messages/${id}/reactions`, params);
    expect(
      (await react(420, 'othello', { emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji' }))
        .status,
    ).toBe(200);
    expect((await react(420, 'iago', { emoji_name: 'big_smile' })).status).toBe(200);
    expectError(
      await react(420, 'cordelia', { emoji_name: 'slight_smile' }),
      400,
      'BAD_REQUEST',
      "Emoji 'slight_smile' does not exist",
    );
    // (On another message: a reaction with a code the message already has joins that vote, whatever its name.)
    const other = await sendToChannel(t, 'hamlet', 'Denmark', 'smiles', 'again');
    const reactOther = (params: Record<string, unknown>) =>
      at(421, 'cordelia').post(`/messages/${other}/reactions`, params);
    expectError(
      await reactOther({ emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji' }),
      400,
      'BAD_REQUEST',
      'Invalid emoji name.',
    );
    expectError(await reactOther({ emoji_name: 'big_smile' }), 400, 'BAD_REQUEST', "Emoji 'big_smile' does not exist");
    const message = t.server.world.store.messages.get(id)!;
    expect(message.reactions.map((r) => [r.emoji_name, r.emoji_code])).toEqual([
      ['smile', '1f642'],
      ['big_smile', '1f604'],
    ]);
    // Statuses too.
    expect((await at(372).post('/users/me/status', { emoji_name: 'smile' })).status).toBe(200);
    expect(t.user('hamlet').status).toMatchObject({ emoji_name: 'smile', emoji_code: '1f642' });
  });

  it('messages, previews and descriptions render :smile: with the names of the level', async () => {
    const span = (name: string, code: string) =>
      `<span aria-label="${name.replace(/_/g, ' ')}" class="emoji emoji-${code}" role="img" title="${name.replace(/_/g, ' ')}">:${name}:</span>`;
    const content = ':smile: :big_smile: :slight_smile:';
    const older = `<p>${span('smile', '1f642')} ${span('big_smile', '1f604')} :slight_smile:</p>`;
    const newer = `<p>${span('smile', '1f604')} :big_smile: ${span('slight_smile', '1f642')}</p>`;
    // A message sent at a level is stored as that server renders it.
    for (const [level, html] of [
      [372, older],
      [420, older],
      [421, newer],
    ] as const) {
      const sent = await at(level).post('/messages', { type: 'stream', to: 'Denmark', topic: 'smiles', content });
      expect(t.server.world.store.messages.get(sent.body.id)!.rendered_content).toBe(html);
      expect((await at(level).post('/messages/render', { content })).body.rendered).toBe(html);
    }
    // An edit at 372 renders the old way too.
    const id = (await at(421).post('/messages', { type: 'stream', to: 'Denmark', topic: 'smiles', content: 'x' })).body
      .id;
    expect((await at(372).patch(`/messages/${id}`, { content })).status).toBe(200);
    expect(t.server.world.store.messages.get(id)!.rendered_content).toBe(older);
    // Channel descriptions follow the level of the request that sets them.
    expect((await at(372, 'iago').patch('/streams/1', { description: ':smile:' })).status).toBe(200);
    expect(t.server.world.store.streams.get(1)!.rendered_description).toBe(`<p>${span('smile', '1f642')}</p>`);
  });
});

describe('APNs tokens (behaviour apns_token_hex, FL 373)', () => {
  it('10.2 decodes them as lenient base64; from 373 they are hexadecimal', async () => {
    const add = (l: number, token: string) =>
      at(l, 'cordelia').post('/users/me/apns_device_token', { token, appid: 'org.zulip.Zulip' });
    expect((await add(372, 'apple-tokenbb')).status).toBe(200);
    expectError(await add(372, 'apple-token'), 400, 'BAD_REQUEST', 'Invalid APNS token');
    expect((await add(372, 'YWJj')).status).toBe(200);
    expect((await add(372, 'YW=')).status).toBe(400);
    expect((await add(372, 'YQ==')).status).toBe(200);
    expectError(await add(373, 'apple-tokenbb'), 400, 'BAD_REQUEST', 'Invalid APNS token');
    expect((await add(373, 'c0ffee00')).status).toBe(200);
  });
});
