// Reading channels: GET /streams with its sources, GET /streams/{stream_id}, GET /get_stream_id,
// GET /users/me/{stream_id}/topics and GET /channel_folders.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ControlClient } from '../../src/control/client.js';
import { expectError, streamId } from '../subscriptions/read-back.js';
import { subscriptionKey } from '../../src/store/store.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(async () => { await t.close(); });
beforeEach(async () => { await new ControlClient(t.base).reset(); });

const store = () => t.server.world.store;
const names = (body: any) => body.streams.map((s: any) => s.name);

describe('GET /streams', () => {
  it('lists public and subscribed channels by name, leaving archived ones out', async () => {
    const r = await t.as('hamlet').get('/streams');
    expect(r.status).toBe(200);
    expect(names(r.body)).toEqual(['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Wales', 'core team']);
    const othello = await t.as('othello').get('/streams');
    expect(names(othello.body)).toEqual(['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Wales']);
    const denmark = r.body.streams.find((s: any) => s.name === 'Denmark');
    expect(denmark).toMatchObject({ stream_id: streamId(t, 'Denmark'), invite_only: false, is_archived: false, first_message_id: 1 });
    expect(denmark.subscriber_count).toBe(store().subscriptions.filter((s) => s.stream_id === denmark.stream_id && store().users.get(s.user_id)!.is_active).length);
    expect(denmark).not.toHaveProperty('is_default');
  });

  it('gives guests only their subscriptions, plus web-public channels on request', async () => {
    expect(names((await t.as('polonius').get('/streams')).body)).toEqual(['Verona']);
    expect(names((await t.as('polonius').get('/streams', { include_web_public: true })).body)).toEqual(['Verona', 'Wales']);
  });

  it('turns sources off and archived channels on', async () => {
    expect(names((await t.as('hamlet').get('/streams', { include_public: false })).body)).toEqual(['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Wales', 'core team']);
    expect(names((await t.as('othello').get('/streams', { include_public: false })).body)).toEqual(['Denmark', 'Scotland', 'Venice', 'Verona', 'Wales']);
    expect(names((await t.as('hamlet').get('/streams', { include_public: false, include_subscribed: false })).body)).toEqual([]);
    expect(names((await t.as('hamlet').get('/streams', { exclude_archived: false })).body)).toContain('Old Rome');
  });

  it('include_all lists every channel whose metadata the caller can see (include_all_active too)', async () => {
    const all = ['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Wales', 'core team', 'moderation'];
    // Administrators see private channels they are not subscribed to.
    store().subscriptions.remove(store().subscriptions.get(subscriptionKey(t.user('iago').user_id, streamId(t, 'moderation')))!);
    expect(names((await t.as('iago').get('/streams', { include_all: true })).body)).toEqual(all);
    expect(names((await t.as('iago').get('/streams', { include_all_active: true })).body)).toEqual(all);
    expect(names((await t.as('othello').get('/streams', { include_all: true })).body)).toEqual(['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Wales']);
  });

  it('include_default marks the default channels', async () => {
    const r = await t.as('hamlet').get('/streams', { include_default: true });
    const defaults = r.body.streams.filter((s: any) => s.is_default).map((s: any) => s.stream_id).sort();
    expect(defaults).toEqual([...store().realm.default_stream_ids].sort());
    expect(r.body.streams.every((s: any) => typeof s.is_default === 'boolean')).toBe(true);
  });

  it('include_owner_subscribed adds, for a bot, the channels its owner is subscribed to', async () => {
    const bot = await t.as('hamlet-bot').get('/streams', { include_public: false, include_owner_subscribed: true });
    expect(names(bot.body)).toEqual(['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Wales', 'core team']);
    const person = await t.as('othello').get('/streams', { include_public: false, include_subscribed: false, include_owner_subscribed: true });
    expect(names(person.body)).toEqual([]);
  });

  it('include_can_access_content lists every channel whose messages the caller can read', async () => {
    expect(names((await t.as('polonius').get('/streams', { include_can_access_content: true })).body)).toEqual(['Verona', 'Wales']);
    expect(names((await t.as('othello').get('/streams', { include_can_access_content: true, include_public: false })).body))
      .toEqual(['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Wales']);
  });
});

describe('GET /streams/{stream_id}', () => {
  it('returns a channel the caller can see', async () => {
    const r = await t.as('hamlet').get(`/streams/${streamId(t, 'core team')}`);
    expect(r.status).toBe(200);
    expect(r.body.stream).toMatchObject({ name: 'core team', invite_only: true, history_public_to_subscribers: false });
  });

  it('lets administrators see a private channel they are not subscribed to', async () => {
    const moderation = streamId(t, 'moderation');
    store().subscriptions.remove(store().subscriptions.get(subscriptionKey(t.user('iago').user_id, moderation))!);
    expect((await t.as('iago').get(`/streams/${moderation}`)).body.stream.name).toBe('moderation');
  });

  it('answers "Invalid channel ID" for inaccessible, archived and unknown channels', async () => {
    expectError(await t.as('othello').get(`/streams/${streamId(t, 'core team')}`), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await t.as('hamlet').get(`/streams/${streamId(t, 'Old Rome')}`), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await t.as('hamlet').get('/streams/999'), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await t.as('polonius').get(`/streams/${streamId(t, 'Denmark')}`), 400, 'BAD_REQUEST', 'Invalid channel ID');
  });
});

describe('GET /get_stream_id', () => {
  it('finds a channel by name without regard to case', async () => {
    const r = await t.as('hamlet').get('/get_stream_id', { stream: 'denmark' });
    expect(r.body).toEqual({ result: 'success', msg: '', stream_id: streamId(t, 'Denmark') });
  });

  it('answers "Invalid channel name" for unknown, unreadable and archived channels', async () => {
    expectError(await t.as('hamlet').get('/get_stream_id', { stream: 'Atlantis' }), 400, 'BAD_REQUEST', "Invalid channel name 'Atlantis'");
    expectError(await t.as('othello').get('/get_stream_id', { stream: 'core team' }), 400, 'BAD_REQUEST', "Invalid channel name 'core team'");
    expectError(await t.as('hamlet').get('/get_stream_id', { stream: 'Old Rome' }), 400, 'BAD_REQUEST', "Invalid channel name 'Old Rome'");
    expectError(await t.as('hamlet').get('/get_stream_id'), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'stream' argument");
  });
});

describe('GET /users/me/{stream_id}/topics', () => {
  it('lists topics newest first with the ID of their latest message', async () => {
    const r = await t.as('hamlet').get(`/users/me/${streamId(t, 'Denmark')}/topics`);
    expect(r.body.topics).toEqual([{ max_id: 6, name: 'Copenhagen' }, { max_id: 3, name: 'test' }]);
  });

  it('names the empty topic by the display name unless the client handles it', async () => {
    const verona = streamId(t, 'Verona');
    const r = await t.as('hamlet').get(`/users/me/${verona}/topics`);
    expect(r.body.topics).toEqual([
      { max_id: 14, name: 'general chat' }, { max_id: 12, name: '✔ resolved topic' }, { max_id: 10, name: 'test' }, { max_id: 9, name: 'greetings' },
    ]);
    const raw = await t.as('hamlet').get(`/users/me/${verona}/topics`, { allow_empty_topic_name: true });
    expect(raw.body.topics[0]).toEqual({ max_id: 14, name: '' });
  });

  it('treats topics case-insensitively, named as in the latest message', async () => {
    const sent = await t.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic: 'COPENHAGEN', content: 'loud' });
    expect(sent.status).toBe(200);
    const r = await t.as('othello').get(`/users/me/${streamId(t, 'Denmark')}/topics`);
    expect(r.body.topics).toEqual([{ max_id: sent.body.id, name: 'COPENHAGEN' }, { max_id: 3, name: 'test' }]);
  });

  it('counts only received messages in a channel with protected history', async () => {
    const coreTeam = streamId(t, 'core team');
    expect((await t.as('hamlet').get(`/users/me/${coreTeam}/topics`)).body.topics).toEqual([{ max_id: 20, name: 'planning' }]);
    await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: [t.user('cordelia').user_id] });
    expect((await t.as('cordelia').get(`/users/me/${coreTeam}/topics`)).body.topics).toEqual([]);
  });

  it('refuses channels the caller cannot read', async () => {
    expectError(await t.as('othello').get(`/users/me/${streamId(t, 'core team')}/topics`), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(await t.as('polonius').get(`/users/me/${streamId(t, 'Denmark')}/topics`), 400, 'BAD_REQUEST', 'Invalid channel ID');
  });
});

describe('GET /channel_folders', () => {
  it('lists the folders in order, archived ones only on request', async () => {
    const r = await t.as('hamlet').get('/channel_folders');
    expect(r.body.channel_folders.map((f: any) => f.name)).toEqual(['Frontend', 'Backend']);
    expect(r.body.channel_folders[0]).toMatchObject({ id: 1, order: 0, is_archived: false, rendered_description: '<p>Channels for the <strong>web</strong> and mobile apps.</p>' });
    const all = await t.as('polonius').get('/channel_folders', { include_archived: true });
    expect(all.body.channel_folders.map((f: any) => f.name)).toEqual(['Frontend', 'Backend', 'Legacy']);
  });

  it('does not exist before feature level 389', async () => {
    expectError(await t.as('hamlet', { 'X-Mock-Feature-Level': '388' }).get('/channel_folders'), 404, 'BAD_REQUEST', 'Not Found');
  });
});
