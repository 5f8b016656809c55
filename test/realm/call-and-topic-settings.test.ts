// PATCH /realm's call, organization-type, empty-topic and moderation settings: video_chat_provider,
// jitsi_server_url (FL 212), org_type (128), topics_policy (392, replacing mandatory_topics) and
// moderation_request_channel_id (331). Each through HTTP: the answer, the `realm` event (shaped by
// the queue's level), register read back, the real server's refusals and the level gates.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { error } from '../helpers/errors.js';
import { streamId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const at = (level: number, who = 'iago') => t.as(who, { 'X-Mock-Feature-Level': String(level) });
const realmAt = async (level = 511) =>
  (await at(level, 'hamlet').post('/register', { fetch_event_types: ['realm'] })).body;
const queueAt = async (level: number) =>
  (await at(level, 'hamlet').post('/register', { event_types: ['realm'], fetch_event_types: [] })).body
    .queue_id as string;
const withoutIds = async (queue: string) => (await eventsOf(t, 'hamlet', queue)).map(({ id: _id, ...e }) => e);

describe('video_chat_provider', () => {
  it('takes the id of a provider the server offers, tells everyone and register reads it back', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm']);
    const offered = (await realmAt()).realm_available_video_chat_providers;
    expect(offered.big_blue_button.id).toBe(4);
    const r = await t.as('iago').patch('/realm', { video_chat_provider: 4 });
    expect(r.body).toEqual({ ...ok, video_chat_provider: 4 });
    expect(await withoutIds(queue)).toEqual([
      { type: 'realm', op: 'update', property: 'video_chat_provider', value: 4 },
    ]);
    expect((await realmAt()).realm_video_chat_provider).toBe(4);
    // Its current value changes nothing and is not answered.
    expect((await t.as('iago').patch('/realm', { video_chat_provider: 4 })).body).toEqual(ok);
  });

  it('refuses a provider the server does not offer (Zoom, unconfigured here) and members', async () => {
    for (const id of [3, 7]) {
      const r = await t.as('iago').patch('/realm', { video_chat_provider: id, name: 'Elsinore' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', `Invalid video_chat_provider ${id}`));
    }
    const member = await t.as('hamlet').patch('/realm', { video_chat_provider: 0 });
    expect(member.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
    expect((await realmAt()).realm_video_chat_provider).toBe(1);
    expect((await realmAt()).realm_name).toBe('Zulip Dev');
  });
});

describe('jitsi_server_url (FL 212)', () => {
  it('sets a URL (answered as updated), goes back to the default with `default` (answered null)', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm']);
    const url = 'https://jitsi.example.com/rooms';
    expect((await t.as('iago').patch('/realm', { jitsi_server_url: url })).body).toEqual({
      ...ok,
      jitsi_server_url: 'updated',
    });
    expect((await realmAt()).realm_jitsi_server_url).toBe(url);
    expect((await t.as('iago').patch('/realm', { jitsi_server_url: 'default' })).body).toEqual({
      ...ok,
      jitsi_server_url: null,
    });
    expect((await realmAt()).realm_jitsi_server_url).toBeNull();
    // Already the default: nothing to say.
    expect((await t.as('iago').patch('/realm', { jitsi_server_url: 'default' })).body).toEqual(ok);
    expect(await withoutIds(queue)).toEqual([
      { type: 'realm', op: 'update', property: 'jitsi_server_url', value: url },
      { type: 'realm', op: 'update', property: 'jitsi_server_url', value: null },
    ]);
  });

  it('refuses what is not a URL of at most 200 characters in one wording; a non-string as such', async () => {
    const long = `https://jitsi.example.com/${'a'.repeat(175)}`;
    expect(long.length).toBe(201);
    for (const value of ['not a url', 'jitsi.example.com', 'mailto:someone@example.com', 'https://nodot', long]) {
      const r = await t.as('iago').patch('/realm', { jitsi_server_url: value });
      expect(r.status, value).toBe(400);
      expect(r.body, value).toEqual(error('BAD_REQUEST', 'jitsi_server_url is not an allowed_type'));
    }
    const number = await t.as('iago').patch('/realm', { jitsi_server_url: 5 });
    expect(number.body).toEqual(error('BAD_REQUEST', 'jitsi_server_url is not a string'));
    expect((await realmAt()).realm_jitsi_server_url).toBeNull();
  });

  it('is unknown below 212', async () => {
    const r = await at(211).patch('/realm', { jitsi_server_url: 'https://jitsi.example.com' });
    expect(r.body).toEqual({ ...ok, ignored_parameters_unsupported: ['jitsi_server_url'] });
    expect((await realmAt()).realm_jitsi_server_url).toBeNull();
  });
});

describe('org_type (FL 128)', () => {
  it('is answered and announced every time, even when given its current value', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm']);
    for (let i = 0; i < 2; i++) {
      expect((await t.as('iago').patch('/realm', { org_type: 20 })).body).toEqual({ ...ok, org_type: 20 });
    }
    const event = { type: 'realm', op: 'update', property: 'org_type', value: 20 };
    expect(await withoutIds(queue)).toEqual([event, event]);
    expect((await realmAt()).realm_org_type).toBe(20);
  });

  it('refuses a value that is not an organization type; unknown below 128, and to queues older than it', async () => {
    const before = (await realmAt()).realm_org_type;
    const r = await t.as('iago').patch('/realm', { org_type: 25 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid org_type'));
    const old = await at(127).patch('/realm', { org_type: 30 });
    // (silently: ignored_parameters_unsupported is newer still, 167)
    expect(old.body).toEqual(ok);
    expect((await realmAt()).realm_org_type).toBe(before);
    const at127 = await queueAt(127);
    await t.as('iago').patch('/realm', { org_type: 30, name: 'Elsinore' });
    expect((await withoutIds(at127)).map((e) => e.property)).toEqual(['name']);
  });
});

describe('topics_policy (FL 392)', () => {
  it('is answered by number, announced with mandatory_topics beside it and enforced on sending', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm']);
    const r = await t.as('iago').patch('/realm', { topics_policy: 'disable_empty_topic' });
    expect(r.body).toEqual({ ...ok, topics_policy: 3 });
    expect(await withoutIds(queue)).toEqual([
      {
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { topics_policy: 'disable_empty_topic', mandatory_topics: true },
      },
    ]);
    expect(await realmAt()).toMatchObject({ realm_topics_policy: 'disable_empty_topic', realm_mandatory_topics: true });
    // Verona inherits the organization's rule.
    const sent = await t.as('hamlet').post('/messages', { type: 'stream', to: 'Verona', topic: '', content: 'hi' });
    expect(sent.body).toEqual(
      error('BAD_REQUEST', 'Sending messages to the general chat is not allowed in this channel.'),
    );
    // Given again: answered again, not announced again.
    expect((await t.as('iago').patch('/realm', { topics_policy: 'disable_empty_topic' })).body).toEqual({
      ...ok,
      topics_policy: 3,
    });
    expect(await withoutIds(queue)).toHaveLength(1);
    const invalid = await t.as('iago').patch('/realm', { topics_policy: 'empty_topic_only' });
    expect(invalid.body).toEqual(error('BAD_REQUEST', 'Invalid topics_policy'));
  });

  it('replaced mandatory_topics: below 392 that one sets the rule, from 392 it is unknown', async () => {
    const at391 = await queueAt(391);
    expect((await at(391).patch('/realm', { topics_policy: 'disable_empty_topic' })).body).toEqual({
      ...ok,
      ignored_parameters_unsupported: ['topics_policy'],
    });
    expect((await at(391).patch('/realm', { mandatory_topics: true })).body).toEqual({
      ...ok,
      mandatory_topics: true,
    });
    expect(await realmAt()).toMatchObject({ realm_topics_policy: 'disable_empty_topic', realm_mandatory_topics: true });
    expect((await at(392).patch('/realm', { mandatory_topics: false })).body).toEqual({
      ...ok,
      ignored_parameters_unsupported: ['mandatory_topics'],
    });
    // A queue of 391 hears the change of 392 as the mandatory_topics it knows.
    await t.as('iago').patch('/realm', { topics_policy: 'allow_empty_topic' });
    expect(await withoutIds(at391)).toEqual([
      { type: 'realm', op: 'update', property: 'mandatory_topics', value: true },
      { type: 'realm', op: 'update_dict', property: 'default', data: { mandatory_topics: false } },
    ]);
  });
});

describe('moderation_request_channel_id (FL 331)', () => {
  it('names a private channel or -1, tells everyone and register reads it back', async () => {
    const queue = await registerQueue(t, 'hamlet', ['realm']);
    const coreTeam = streamId(t, 'core team');
    expect((await t.as('iago').patch('/realm', { moderation_request_channel_id: coreTeam })).body).toEqual({
      ...ok,
      moderation_request_channel_id: coreTeam,
    });
    expect((await realmAt()).realm_moderation_request_channel_id).toBe(coreTeam);
    expect((await t.as('iago').patch('/realm', { moderation_request_channel_id: -1 })).body).toEqual({
      ...ok,
      moderation_request_channel_id: -1,
    });
    expect((await realmAt()).realm_moderation_request_channel_id).toBe(-1);
    expect(await withoutIds(queue)).toEqual([
      { type: 'realm', op: 'update', property: 'moderation_request_channel_id', value: coreTeam },
      { type: 'realm', op: 'update', property: 'moderation_request_channel_id', value: -1 },
    ]);
  });

  it('refuses a public channel and one that does not exist; unknown below 331, and to queues older than it', async () => {
    const pub = await t.as('iago').patch('/realm', { moderation_request_channel_id: streamId(t, 'Verona') });
    expect(pub.body).toEqual(error('BAD_REQUEST', 'Moderation request channel must be private.'));
    const none = await t.as('iago').patch('/realm', { moderation_request_channel_id: 9999 });
    expect(none.body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
    const moderation = streamId(t, 'moderation');
    expect((await realmAt()).realm_moderation_request_channel_id).toBe(moderation);
    const old = await at(330).patch('/realm', { moderation_request_channel_id: -1 });
    expect(old.body).toEqual({ ...ok, ignored_parameters_unsupported: ['moderation_request_channel_id'] });
    expect(await realmAt(330)).not.toHaveProperty('realm_moderation_request_channel_id');
    const at330 = await queueAt(330);
    await t.as('iago').patch('/realm', { moderation_request_channel_id: -1, name: 'Elsinore' });
    expect((await withoutIds(at330)).map((e) => e.property)).toEqual(['name']);
  });
});
