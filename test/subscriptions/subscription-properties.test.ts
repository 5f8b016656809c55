// PATCH /users/me/subscriptions/{stream_id} and POST /users/me/subscriptions/properties: every
// property, the value rules, is_muted/in_home_view, errors, and the subscription/update events.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { watchEvents } from '../helpers/events.js';
import { streamId } from '../helpers/fixture-rows.js';
import { subscriptionOf } from '../helpers/read-back.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const verona = () => streamId(t, 'Verona');
const setting = (stream: number, property: string, value: unknown, who = 'hamlet') =>
  t.as(who).patch(`/users/me/subscriptions/${stream}`, { property, value });

describe('PATCH /users/me/subscriptions/{stream_id}', () => {
  it.each([
    'pin_to_top',
    'desktop_notifications',
    'audible_notifications',
    'push_notifications',
    'email_notifications',
    'wildcard_mentions_notify',
  ])('sets the boolean %s and sends one update event', async (property) => {
    const hamlet = t.as('hamlet');
    const before = (await subscriptionOf(hamlet, verona()))[property];
    const value = before !== true;
    const events = watchEvents(t);
    const res = await setting(verona(), property, value);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect((await subscriptionOf(hamlet, verona()))[property]).toBe(value);
    expect(events.map((e) => e.event)).toEqual([
      { type: 'subscription', op: 'update', property, value, stream_id: verona() },
    ]);
    expect(events[0].users).toEqual([t.user('hamlet').user_id]);
  });

  it('sets color to a hex colour, sent as bare text', async () => {
    expect((await setting(verona(), 'color', '#ff00aa')).status).toBe(200);
    expect((await subscriptionOf(t.as('hamlet'), verona())).color).toBe('#ff00aa');
    expectError(await setting(verona(), 'color', 'red'), 400, 'BAD_REQUEST', 'color is not a valid hex color code');
    expectError(await setting(verona(), 'color', true), 400, 'BAD_REQUEST', 'color is not a string');
    expect((await subscriptionOf(t.as('hamlet'), verona())).color).toBe('#ff00aa');
  });

  it('treats is_muted and in_home_view as inverses, with two events for either', async () => {
    let events = watchEvents(t);
    expect((await setting(verona(), 'is_muted', true)).status).toBe(200);
    expect(await subscriptionOf(t.as('hamlet'), verona())).toMatchObject({ is_muted: true, in_home_view: false });
    expect(events.map((e) => e.event)).toEqual([
      { type: 'subscription', op: 'update', property: 'in_home_view', value: false, stream_id: verona() },
      { type: 'subscription', op: 'update', property: 'is_muted', value: true, stream_id: verona() },
    ]);

    events = watchEvents(t);
    expect((await setting(verona(), 'in_home_view', true)).status).toBe(200);
    expect(await subscriptionOf(t.as('hamlet'), verona())).toMatchObject({ is_muted: false, in_home_view: true });
    expect(events.map((e) => e.event.property)).toEqual(['in_home_view', 'is_muted']);
    expect(events.map((e) => e.event.value)).toEqual([true, false]);
  });

  it('wants a boolean for the other properties', async () => {
    expectError(await setting(verona(), 'pin_to_top', 'yes'), 400, 'BAD_REQUEST', 'pin_to_top is not a boolean');
    expectError(await setting(verona(), 'is_muted', '#ffffff'), 400, 'BAD_REQUEST', 'is_muted is not a boolean');
  });

  it("rejects an unknown property with the server's wording", async () => {
    expectError(await setting(verona(), 'foo', true), 400, 'BAD_REQUEST', 'Unknown subscription property: foo');
  });

  it('needs a subscription and an accessible channel', async () => {
    const venice = streamId(t, 'Venice');
    expectError(
      await setting(venice, 'pin_to_top', true, 'cordelia'),
      400,
      'BAD_REQUEST',
      `Not subscribed to channel ID ${venice}`,
    );
    expectError(await setting(999, 'pin_to_top', true), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(
      await setting(streamId(t, 'core team'), 'pin_to_top', true, 'othello'),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
  });

  it('reports a missing value', async () => {
    const res = await t.as('hamlet').patch(`/users/me/subscriptions/${verona()}`, { property: 'pin_to_top' });
    expectError(res, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'value' argument");
  });
});

describe('POST /users/me/subscriptions/properties', () => {
  it('applies several changes across channels', async () => {
    const denmark = streamId(t, 'Denmark');
    const res = await t.as('hamlet').post('/users/me/subscriptions/properties', {
      subscription_data: [
        { stream_id: verona(), property: 'color', value: '#123456' },
        { stream_id: denmark, property: 'in_home_view', value: false },
        { stream_id: denmark, property: 'email_notifications', value: true },
      ],
    });
    expect(res.status).toBe(200);
    expect((await subscriptionOf(t.as('hamlet'), verona())).color).toBe('#123456');
    expect(await subscriptionOf(t.as('hamlet'), denmark)).toMatchObject({ is_muted: true, email_notifications: true });
  });

  it('checks every change before applying any', async () => {
    const res = await t.as('hamlet').post('/users/me/subscriptions/properties', {
      subscription_data: [
        { stream_id: verona(), property: 'pin_to_top', value: false },
        { stream_id: verona(), property: 'bad', value: true },
      ],
    });
    expectError(res, 400, 'BAD_REQUEST', 'Unknown subscription property: bad');
    expect((await subscriptionOf(t.as('hamlet'), verona())).pin_to_top).toBe(true);
    expectError(
      await t.as('hamlet').post('/users/me/subscriptions/properties', {
        subscription_data: [
          { stream_id: verona(), property: 'pin_to_top', value: false },
          { stream_id: verona(), property: 'color', value: 'blue' },
        ],
      }),
      400,
      'BAD_REQUEST',
      'Invalid subscription_data[1]: Value error, color is not a valid hex color code',
    );
  });

  it('stops at the first channel error, keeping the changes before it', async () => {
    const venice = streamId(t, 'Venice');
    const res = await t.as('cordelia').post('/users/me/subscriptions/properties', {
      subscription_data: [
        { stream_id: verona(), property: 'pin_to_top', value: true },
        { stream_id: venice, property: 'pin_to_top', value: true },
        { stream_id: streamId(t, 'Denmark'), property: 'pin_to_top', value: true },
      ],
    });
    expectError(res, 400, 'BAD_REQUEST', `Not subscribed to channel ID ${venice}`);
    expect((await subscriptionOf(t.as('cordelia'), verona())).pin_to_top).toBe(true);
    expect((await subscriptionOf(t.as('cordelia'), streamId(t, 'Denmark'))).pin_to_top).toBe(false);
  });
});
