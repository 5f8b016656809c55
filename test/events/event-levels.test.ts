// Events at the queue's feature level: a queue registered at an older level receives each event as
// that server would send it, fields from later levels left out, and no event whose whole change
// (a `property`) or whose kind (type, or type/op) appeared later. Queues at an old and at the
// newest level compared.
// (No endpoint here changes linkifiers yet; realm_linkifiers events are shaped by the same table.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventsOf } from '../helpers/events.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const OLD = 372;
const TYPES = ['subscription', 'stream', 'realm_linkifiers', 'user_settings', 'realm_user'];

async function register(level?: number): Promise<string> {
  const headers: Record<string, string> = level === undefined ? {} : { 'X-Mock-Feature-Level': String(level) };
  const r = await t.as('hamlet', headers).post('/register', { event_types: TYPES, fetch_event_types: [] });
  expect(r.status).toBe(200);
  return r.body.queue_id;
}

/** The event without the fields the old level does not know. */
const without = (event: Record<string, unknown>, key: string, fields: string[]) => ({
  ...event,
  [key]: (event[key] as Array<Record<string, unknown>>).map((row) =>
    Object.fromEntries(Object.entries(row).filter(([f]) => !fields.includes(f))),
  ),
});

describe("events at the queue's feature level", () => {
  it('shapes subscription, stream and settings events for a queue registered at 372', async () => {
    const oldQ = await register(OLD);
    const newQ = await register();

    expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'levels' }] })).status).toBe(
      200,
    );
    const streamId = t.server.world.store.streams.by('name', 'levels')!.stream_id;
    expect((await t.as('iago').patch(`/streams/${streamId}`, { description: 'Old and new' })).status).toBe(200);
    expect((await t.as('iago').patch(`/streams/${streamId}`, { topics_policy: 'allow_empty_topic' })).status).toBe(200);
    expect((await t.as('hamlet').patch('/settings', { twenty_four_hour_time: true })).status).toBe(200);
    expect((await t.as('hamlet').patch('/settings', { web_left_sidebar_unreads_count_summary: false })).status).toBe(
      200,
    );

    const newest = await eventsOf(t, 'hamlet', newQ);
    const old = await eventsOf(t, 'hamlet', oldQ);
    const kinds = (events: any[]) => events.map((e) => `${e.type}/${e.op ?? ''}/${e.property ?? ''}`);
    expect(kinds(newest)).toEqual([
      'stream/create/',
      'subscription/add/',
      'stream/update/description',
      'stream/update/topics_policy',
      'user_settings/update/twenty_four_hour_time',
      'user_settings/update/web_left_sidebar_unreads_count_summary',
    ]);
    // The two events of fields newer than 372 are not sent at all; the others keep their order.
    expect(kinds(old)).toEqual([
      'stream/create/',
      'subscription/add/',
      'stream/update/description',
      'user_settings/update/twenty_four_hour_time',
    ]);

    const byKind = (events: any[], k: string) => events.find((e) => kinds([e])[0] === k);
    // Channels and subscriptions lose the fields of levels 388-507; the IDs renumber per queue.
    const channelFields = [
      'default_push_notifications',
      'folder_id',
      'topics_policy',
      'subscriber_count',
      'can_move_messages_out_of_channel_group',
      'can_move_messages_within_channel_group',
      'can_resolve_topics_group',
      'can_delete_any_message_group',
      'can_delete_own_message_group',
      'can_create_topic_group',
    ];
    const subscriptionFields = [...channelFields, 'partial_subscribers'];
    const oldCreate = byKind(old, 'stream/create/');
    expect(oldCreate).toEqual({
      ...without(byKind(newest, 'stream/create/'), 'streams', channelFields),
      id: oldCreate.id,
    });
    for (const f of channelFields) expect(byKind(newest, 'stream/create/').streams[0]).toHaveProperty(f);
    const oldAdd = byKind(old, 'subscription/add/');
    expect(oldAdd).toEqual({
      ...without(byKind(newest, 'subscription/add/'), 'subscriptions', subscriptionFields),
      id: oldAdd.id,
    });
    expect(byKind(newest, 'subscription/add/').subscriptions[0]).toHaveProperty('folder_id');
    // Events of fields every level knows pass unchanged.
    for (const k of ['stream/update/description', 'user_settings/update/twenty_four_hour_time']) {
      const o = byKind(old, k);
      expect(o).toEqual({ ...byKind(newest, k), id: o.id });
    }
  });
});

describe("kinds of events by the queue's feature level (the description's EventKinds)", () => {
  const queueAt = async (who: string, level: number | undefined, types: string[]) => {
    const headers: Record<string, string> = level === undefined ? {} : { 'X-Mock-Feature-Level': String(level) };
    const r = await t.as(who, headers).post('/register', {
      event_types: types,
      fetch_event_types: [],
      client_capabilities: { linkifier_url_template: true },
    });
    expect(r.status).toBe(200);
    return r.body.queue_id as string;
  };
  const kinds = (events: any[]) => events.map((e) => `${e.type}/${e.op ?? ''}`);

  it('sends no event of a type newer than the queue (reminders: FL 399)', async () => {
    const before = await queueAt('hamlet', 398, ['reminders']);
    const at = await queueAt('hamlet', 399, ['reminders']);
    const newest = await queueAt('hamlet', undefined, ['reminders']);
    const message = t.server.world.store.messages.all()[0];
    const r = await t
      .as('hamlet')
      .post('/reminders', { message_id: message.id, scheduled_delivery_timestamp: t.server.clock.now() + 3600 });
    expect(r.status).toBe(200);
    expect(await eventsOf(t, 'hamlet', before)).toEqual([]);
    expect(kinds(await eventsOf(t, 'hamlet', at))).toEqual(['reminders/add']);
    expect(kinds(await eventsOf(t, 'hamlet', newest))).toEqual(['reminders/add']);
  });

  it('sends no event of an operation newer than the queue (saved_snippets update: FL 368; add: FL 297)', async () => {
    const old = await queueAt('othello', 367, ['saved_snippets']);
    const older = await queueAt('othello', 296, ['saved_snippets']);
    const newest = await queueAt('othello', undefined, ['saved_snippets']);
    const created = await t.as('othello').post('/saved_snippets', { title: 'Sign-off', content: 'Cheers' });
    expect(created.status).toBe(200);
    expect(
      (await t.as('othello').patch(`/saved_snippets/${created.body.saved_snippet_id}`, { title: 'Bye' })).status,
    ).toBe(200);
    expect(kinds(await eventsOf(t, 'othello', newest))).toEqual(['saved_snippets/add', 'saved_snippets/update']);
    expect(kinds(await eventsOf(t, 'othello', old))).toEqual(['saved_snippets/add']);
    expect(await eventsOf(t, 'othello', older)).toEqual([]);
  });

  it('stops sending a kind the server removed (realm_filters: until FL 176), at the newest level too', async () => {
    const old = await queueAt('cordelia', 175, ['realm_linkifiers', 'realm_filters']);
    const newest = await queueAt('cordelia', undefined, ['realm_linkifiers', 'realm_filters']);
    const r = await t
      .as('iago')
      .post('/realm/filters', { pattern: 'LEVEL-(?P<id>[0-9]+)', url_template: 'https://levels.example/{id}' });
    expect(r.status).toBe(200);
    expect(kinds(await eventsOf(t, 'cordelia', old))).toEqual(['realm_linkifiers/', 'realm_filters/']);
    expect(kinds(await eventsOf(t, 'cordelia', newest))).toEqual(['realm_linkifiers/']);
  });
});

describe('default channels before feature level 330 (channel objects, then IDs)', () => {
  // Fixture: Denmark 1, Scotland 2, Verona 3 are default; Venice 4 public; group 1 "Shakespeare" (Verona, Venice).
  const at = (level: number) => ({ 'X-Mock-Feature-Level': String(level) });
  const state = async (level?: number) =>
    (
      await t
        .as('hamlet', level === undefined ? {} : at(level))
        .post('/register', { fetch_event_types: ['default_streams', 'default_stream_groups'] })
    ).body;
  const queueAt = async (level?: number) =>
    (
      await t
        .as('hamlet', level === undefined ? {} : at(level))
        .post('/register', { event_types: ['default_streams', 'default_stream_groups'], fetch_event_types: [] })
    ).body.queue_id as string;
  const names = (channels: any[]) => channels.map((c) => c.name);
  /** Fields a pre-330 default channel has, whatever the level below 330. */
  const OLD_FIELDS = [
    'stream_id',
    'name',
    'description',
    'rendered_description',
    'date_created',
    'invite_only',
    'is_web_public',
    'history_public_to_subscribers',
    'first_message_id',
  ];
  /** Fields it never has: stream_weekly_traffic (GET /streams only), and fields of 389 and later. */
  const NEVER = ['stream_weekly_traffic', 'folder_id', 'topics_policy', 'subscriber_count', 'is_default'];

  it('register gives the channels themselves below 330, sorted by name, shaped to the level', async () => {
    const ids = t.server.world.store.realm.default_stream_ids;
    expect((await state()).realm_default_streams).toEqual(ids);
    expect((await state(330)).realm_default_streams).toEqual(ids);
    const old = (await state(329)).realm_default_streams;
    expect(names(old)).toEqual(['Denmark', 'Scotland', 'Verona']);
    expect(old.map((c: any) => c.stream_id)).toEqual([1, 2, 3]);
    for (const c of old) {
      for (const f of OLD_FIELDS) expect(c, f).toHaveProperty(f);
      for (const f of NEVER) expect(c, f).not.toHaveProperty(f);
      expect(c).toHaveProperty('is_archived', false); // FL 315
    }
    const older = (await state(314)).realm_default_streams;
    expect(names(older)).toEqual(['Denmark', 'Scotland', 'Verona']);
    for (const c of older) expect(c).not.toHaveProperty('is_archived');
    // Groups: their channels by name, as IDs from 330, as channels before.
    expect((await state()).realm_default_stream_groups[0].streams).toEqual([4, 3]);
    const oldGroup = (await state(329)).realm_default_stream_groups[0];
    expect(oldGroup).toMatchObject({ id: 1, name: 'Shakespeare' });
    expect(names(oldGroup.streams)).toEqual(['Venice', 'Verona']);
    for (const c of oldGroup.streams) for (const f of NEVER) expect(c, f).not.toHaveProperty(f);
  });

  it("default_streams and default_stream_groups events carry each queue's form", async () => {
    const oldQ = await queueAt(329);
    const newQ = await queueAt();
    expect((await t.as('iago').post('/default_streams', { stream_id: 4 })).status).toBe(200);
    expect((await t.as('iago').patch('/default_stream_groups/1', { new_description: 'Plays' })).status).toBe(200);
    const strip = (events: any[]) => events.map(({ id: _id, ...e }) => e);
    expect(strip(await eventsOf(t, 'hamlet', newQ))).toEqual([
      { type: 'default_streams', default_streams: [1, 2, 3, 4] },
      {
        type: 'default_stream_groups',
        default_stream_groups: [{ id: 1, name: 'Shakespeare', description: 'Plays', streams: [4, 3] }],
      },
    ]);
    const old = strip(await eventsOf(t, 'hamlet', oldQ));
    expect(old.map((e) => e.type)).toEqual(['default_streams', 'default_stream_groups']);
    // What a queue at 329 hears is what register at 329 reads back.
    const after = await state(329);
    expect(old[0].default_streams).toEqual(after.realm_default_streams);
    expect(names(old[0].default_streams)).toEqual(['Denmark', 'Scotland', 'Venice', 'Verona']);
    expect(old[1].default_stream_groups).toEqual(after.realm_default_stream_groups);
    for (const c of old[0].default_streams) for (const f of NEVER) expect(c, f).not.toHaveProperty(f);
  });
});
