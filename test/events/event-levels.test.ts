// Events at the queue's feature level: a queue registered at an older level receives each event as
// that server would send it, fields from later levels left out, and no event whose whole change
// (a `property`) appeared later. Two queues, one at 372 and one at the newest level, compared.
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
