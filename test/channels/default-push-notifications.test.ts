// A channel's default_push_notifications (FL 507): set by administrators when creating a channel
// (POST /channels/create, POST /users/me/subscriptions) or later (PATCH /streams/{id}), shown in
// channel and subscription objects, a stream update event when it changes, and a first
// subscription that starts with push_notifications on. Below 507 the parameter and field are unknown.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { streamId } from '../helpers/fixture-rows.js';
import { subscriptionOf } from '../helpers/read-back.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
const at = (level: number, who: string) => t.as(who, { 'X-Mock-Feature-Level': String(level) });

describe('default_push_notifications (FL 507)', () => {
  it('is set at creation by an administrator, and turns push notifications on for first subscribers', async () => {
    const r = await t.as('iago').post('/channels/create', {
      name: 'Alerts',
      subscribers: [id('iago'), id('hamlet')],
      default_push_notifications: true,
    });
    expect(r.status).toBe(200);
    const channel = (await t.as('hamlet').get(`/streams/${r.body.id}`)).body.stream;
    expect(channel.default_push_notifications).toBe(true);
    expect(await subscriptionOf(t.as('hamlet'), r.body.id)).toMatchObject({
      default_push_notifications: true,
      push_notifications: true,
    });
    // Othello subscribes later: a first subscription, so on as well.
    await t.as('othello').post('/users/me/subscriptions', { subscriptions: [{ name: 'Alerts' }] });
    expect((await subscriptionOf(t.as('othello'), r.body.id)).push_notifications).toBe(true);
    // Unsubscribing and subscribing again does not apply the default again.
    await t.as('othello').delete('/users/me/subscriptions', { subscriptions: ['Alerts'] });
    await t.as('othello').post('/users/me/subscriptions', { subscriptions: [{ name: 'Alerts' }] });
    expect((await subscriptionOf(t.as('othello'), r.body.id)).push_notifications).toBeNull();
  });

  it('is false by default, in GET /streams and the subscription objects', async () => {
    const channels = (await t.as('hamlet').get('/streams')).body.streams;
    expect(channels.every((c: { default_push_notifications: boolean }) => c.default_push_notifications === false)).toBe(
      true,
    );
    const sub = await subscriptionOf(t.as('hamlet'), streamId(t, 'Denmark'));
    expect(sub.default_push_notifications).toBe(false);
  });

  it('is refused to members, at creation and in PATCH /streams/{id}', async () => {
    expectError(
      await t
        .as('hamlet')
        .post('/channels/create', { name: 'Mine', subscribers: [id('hamlet')], default_push_notifications: true }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await t.as('hamlet').post('/users/me/subscriptions', {
        subscriptions: [{ name: 'Mine too' }],
        default_push_notifications: true,
      }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    // Hamlet administers a channel he created, but the setting is the organization administrators'.
    const mine = await t.as('hamlet').post('/channels/create', { name: 'Mine', subscribers: [id('hamlet')] });
    expectError(
      await t.as('hamlet').patch(`/streams/${mine.body.id}`, { default_push_notifications: true }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expect(t.server.world.store.streams.get(mine.body.id)!.default_push_notifications).toBe(false);
  });

  it('changes with PATCH /streams/{id}, with a stream update event', async () => {
    const denmark = streamId(t, 'Denmark');
    const q = await registerQueue(t, 'hamlet', ['stream']);
    const r = await t.as('iago').patch(`/streams/${denmark}`, { default_push_notifications: true });
    expect(r.status).toBe(200);
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      {
        type: 'stream',
        op: 'update',
        property: 'default_push_notifications',
        value: true,
        stream_id: denmark,
        name: 'Denmark',
        id: 0,
      },
    ]);
    expect((await t.as('hamlet').get(`/streams/${denmark}`)).body.stream.default_push_notifications).toBe(true);
  });

  it('does not exist at 506: the parameter is unsupported, the field absent, no event for older queues', async () => {
    const denmark = streamId(t, 'Denmark');
    const old = (await at(506, 'hamlet').post('/register', { event_types: ['stream'], fetch_event_types: [] })).body
      .queue_id as string;
    const r = await at(506, 'iago').patch(`/streams/${denmark}`, { default_push_notifications: true });
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['default_push_notifications'],
    });
    expect(t.server.world.store.streams.get(denmark)!.default_push_notifications).not.toBe(true);
    const created = await at(506, 'iago').post('/channels/create', {
      name: 'Old style',
      subscribers: [id('hamlet')],
      default_push_notifications: true,
    });
    expect(created.body.ignored_parameters_unsupported).toEqual(['default_push_notifications']);
    expect((await subscriptionOf(t.as('hamlet'), created.body.id)).push_notifications).toBeNull();
    expect((await at(506, 'hamlet').get(`/streams/${denmark}`)).body.stream).not.toHaveProperty(
      'default_push_notifications',
    );
    await t.as('iago').patch(`/streams/${denmark}`, { default_push_notifications: true });
    const kinds = (await eventsOf(t, 'hamlet', old)).map((e) => `${e.op}/${e.property ?? ''}`);
    expect(kinds).not.toContain('update/default_push_notifications');
  });
});
