// Reading channels: GET /streams with its sources, GET /streams/{stream_id} and GET /get_stream_id.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { streamId } from '../helpers/fixture-rows.js';
import { ControlClient } from '../../src/control/client.js';
import { subscriptionKey } from '../../src/store/store.js';

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
    expect(denmark).toMatchObject({
      stream_id: streamId(t, 'Denmark'),
      invite_only: false,
      is_archived: false,
      first_message_id: 1,
    });
    expect(denmark.subscriber_count).toBe(
      store().subscriptions.filter((s) => s.stream_id === denmark.stream_id && store().users.get(s.user_id)!.is_active)
        .length,
    );
    expect(denmark).not.toHaveProperty('is_default');
  });

  it('gives guests only their subscriptions, plus web-public channels on request', async () => {
    expect(names((await t.as('polonius').get('/streams')).body)).toEqual(['Verona']);
    expect(names((await t.as('polonius').get('/streams', { include_web_public: true })).body)).toEqual([
      'Verona',
      'Wales',
    ]);
  });

  it('turns sources off and archived channels on', async () => {
    expect(names((await t.as('hamlet').get('/streams', { include_public: false })).body)).toEqual([
      'Denmark',
      'Rome',
      'Scotland',
      'Venice',
      'Verona',
      'Wales',
      'core team',
    ]);
    expect(names((await t.as('othello').get('/streams', { include_public: false })).body)).toEqual([
      'Denmark',
      'Scotland',
      'Venice',
      'Verona',
      'Wales',
    ]);
    expect(
      names((await t.as('hamlet').get('/streams', { include_public: false, include_subscribed: false })).body),
    ).toEqual([]);
    expect(names((await t.as('hamlet').get('/streams', { exclude_archived: false })).body)).toContain('Old Rome');
  });

  it('include_all lists every channel whose metadata the caller can see (include_all_active too)', async () => {
    const all = ['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Wales', 'core team', 'moderation'];
    // Administrators see private channels they are not subscribed to.
    store().subscriptions.remove(
      store().subscriptions.get(subscriptionKey(t.user('iago').user_id, streamId(t, 'moderation')))!,
    );
    expect(names((await t.as('iago').get('/streams', { include_all: true })).body)).toEqual(all);
    expect(names((await t.as('iago').get('/streams', { include_all_active: true })).body)).toEqual(all);
    expect(names((await t.as('othello').get('/streams', { include_all: true })).body)).toEqual([
      'Denmark',
      'Rome',
      'Scotland',
      'Venice',
      'Verona',
      'Wales',
    ]);
  });

  it('include_default marks the default channels', async () => {
    const r = await t.as('hamlet').get('/streams', { include_default: true });
    const defaults = r.body.streams
      .filter((s: any) => s.is_default)
      .map((s: any) => s.stream_id)
      .sort();
    expect(defaults).toEqual([...store().realm.default_stream_ids].sort());
    expect(r.body.streams.every((s: any) => typeof s.is_default === 'boolean')).toBe(true);
  });

  it('include_owner_subscribed adds, for a bot, the channels its owner is subscribed to', async () => {
    const bot = await t.as('hamlet-bot').get('/streams', { include_public: false, include_owner_subscribed: true });
    expect(names(bot.body)).toEqual(['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Wales', 'core team']);
    const person = await t
      .as('othello')
      .get('/streams', { include_public: false, include_subscribed: false, include_owner_subscribed: true });
    expect(names(person.body)).toEqual([]);
  });

  it('include_can_access_content lists every channel whose messages the caller can read', async () => {
    expect(names((await t.as('polonius').get('/streams', { include_can_access_content: true })).body)).toEqual([
      'Verona',
      'Wales',
    ]);
    expect(
      names((await t.as('othello').get('/streams', { include_can_access_content: true, include_public: false })).body),
    ).toEqual(['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Wales']);
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
    expectError(
      await t.as('othello').get(`/streams/${streamId(t, 'core team')}`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await t.as('hamlet').get(`/streams/${streamId(t, 'Old Rome')}`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(await t.as('hamlet').get('/streams/999'), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(
      await t.as('polonius').get(`/streams/${streamId(t, 'Denmark')}`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
  });
});

describe('GET /get_stream_id', () => {
  it('finds a channel by name without regard to case', async () => {
    const r = await t.as('hamlet').get('/get_stream_id', { stream: 'denmark' });
    expect(r.body).toEqual({ result: 'success', msg: '', stream_id: streamId(t, 'Denmark') });
  });

  it('answers "Invalid channel name" for unknown, unreadable and archived channels', async () => {
    expectError(
      await t.as('hamlet').get('/get_stream_id', { stream: 'Atlantis' }),
      400,
      'BAD_REQUEST',
      "Invalid channel name 'Atlantis'",
    );
    expectError(
      await t.as('othello').get('/get_stream_id', { stream: 'core team' }),
      400,
      'BAD_REQUEST',
      "Invalid channel name 'core team'",
    );
    expectError(
      await t.as('hamlet').get('/get_stream_id', { stream: 'Old Rome' }),
      400,
      'BAD_REQUEST',
      "Invalid channel name 'Old Rome'",
    );
    expectError(
      await t.as('hamlet').get('/get_stream_id'),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'stream' argument",
    );
  });
});
