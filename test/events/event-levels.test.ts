// Events at the queue's feature level: a queue registered at an older level receives each event as
// that server would send it, fields from later levels left out, and no event whose whole change
// (a `property`) or whose kind (type, or type/op) appeared later. Queues at an old and at the
// newest level compared.
// (No endpoint here changes linkifiers yet; realm_linkifiers events are shaped by the same table.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventsOf } from '../helpers/events.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(async () => { await t.close(); });

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
  [key]: (event[key] as Array<Record<string, unknown>>).map((row) => Object.fromEntries(Object.entries(row).filter(([f]) => !fields.includes(f)))),
});

describe('events at the queue\'s feature level', () => {
  it('shapes subscription, stream and settings events for a queue registered at 372', async () => {
    const oldQ = await register(OLD);
    const newQ = await register();

    expect((await t.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'levels' }] })).status).toBe(200);
    const streamId = t.server.world.store.streams.by('name', 'levels')!.stream_id;
    expect((await t.as('iago').patch(`/streams/${streamId}`, { description: 'Old and new' })).status).toBe(200);
    expect((await t.as('iago').patch(`/streams/${streamId}`, { topics_policy: 'allow_empty_topic' })).status).toBe(200);
    expect((await t.as('hamlet').patch('/settings', { twenty_four_hour_time: true })).status).toBe(200);
    expect((await t.as('hamlet').patch('/settings', { web_left_sidebar_unreads_count_summary: false })).status).toBe(200);

    const newest = await eventsOf(t, 'hamlet', newQ);
    const old = await eventsOf(t, 'hamlet', oldQ);
    const kinds = (events: any[]) => events.map((e) => `${e.type}/${e.op ?? ''}/${e.property ?? ''}`);
    expect(kinds(newest)).toEqual([
      'stream/create/', 'subscription/add/', 'stream/update/description', 'stream/update/topics_policy',
      'user_settings/update/twenty_four_hour_time', 'user_settings/update/web_left_sidebar_unreads_count_summary',
    ]);
    // The two events of fields newer than 372 are not sent at all; the others keep their order.
    expect(kinds(old)).toEqual(['stream/create/', 'subscription/add/', 'stream/update/description', 'user_settings/update/twenty_four_hour_time']);

    const byKind = (events: any[], k: string) => events.find((e) => kinds([e])[0] === k);
    // Channels and subscriptions lose the fields of levels 388-412; the IDs renumber per queue.
    const channelFields = ['folder_id', 'topics_policy', 'subscriber_count'];
    const subscriptionFields = [...channelFields, 'partial_subscribers'];
    const oldCreate = byKind(old, 'stream/create/');
    expect(oldCreate).toEqual({ ...without(byKind(newest, 'stream/create/'), 'streams', channelFields), id: oldCreate.id });
    for (const f of channelFields) expect(byKind(newest, 'stream/create/').streams[0]).toHaveProperty(f);
    const oldAdd = byKind(old, 'subscription/add/');
    expect(oldAdd).toEqual({ ...without(byKind(newest, 'subscription/add/'), 'subscriptions', subscriptionFields), id: oldAdd.id });
    expect(byKind(newest, 'subscription/add/').subscriptions[0]).toHaveProperty('folder_id');
    // Events of fields every level knows pass unchanged.
    for (const k of ['stream/update/description', 'user_settings/update/twenty_four_hour_time']) {
      const o = byKind(old, k);
      expect(o).toEqual({ ...byKind(newest, k), id: o.id });
    }
  });
});

describe('kinds of events by the queue\'s feature level (the description\'s EventKinds)', () => {
  const queueAt = async (who: string, level: number | undefined, types: string[]) => {
    const headers: Record<string, string> = level === undefined ? {} : { 'X-Mock-Feature-Level': String(level) };
    const r = await t.as(who, headers).post('/register', { event_types: types, fetch_event_types: [], client_capabilities: { linkifier_url_template: true } });
    expect(r.status).toBe(200);
    return r.body.queue_id as string;
  };
  const kinds = (events: any[]) => events.map((e) => `${e.type}/${e.op ?? ''}`);

  it('sends no event of a type newer than the queue (reminders: FL 399)', async () => {
    const before = await queueAt('hamlet', 398, ['reminders']);
    const at = await queueAt('hamlet', 399, ['reminders']);
    const newest = await queueAt('hamlet', undefined, ['reminders']);
    const message = t.server.world.store.messages.all()[0];
    const r = await t.as('hamlet').post('/reminders', { message_id: message.id, scheduled_delivery_timestamp: t.server.clock.now() + 3600 });
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
    expect((await t.as('othello').patch(`/saved_snippets/${created.body.saved_snippet_id}`, { title: 'Bye' })).status).toBe(200);
    expect(kinds(await eventsOf(t, 'othello', newest))).toEqual(['saved_snippets/add', 'saved_snippets/update']);
    expect(kinds(await eventsOf(t, 'othello', old))).toEqual(['saved_snippets/add']);
    expect(await eventsOf(t, 'othello', older)).toEqual([]);
  });

  it('stops sending a kind the server removed (realm_filters: until FL 176), at the newest level too', async () => {
    const old = await queueAt('cordelia', 175, ['realm_linkifiers', 'realm_filters']);
    const newest = await queueAt('cordelia', undefined, ['realm_linkifiers', 'realm_filters']);
    const r = await t.as('iago').post('/realm/filters', { pattern: 'LEVEL-(?P<id>[0-9]+)', url_template: 'https://levels.example/{id}' });
    expect(r.status).toBe(200);
    expect(kinds(await eventsOf(t, 'cordelia', old))).toEqual(['realm_linkifiers/', 'realm_filters/']);
    expect(kinds(await eventsOf(t, 'cordelia', newest))).toEqual(['realm_linkifiers/']);
  });
});
