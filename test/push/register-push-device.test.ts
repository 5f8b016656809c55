// POST /mobile_push/register: registering a logged-in device for end-to-end encrypted push
// notifications (FL 468: push key and token, each rotatable), the FL 406-467 form by
// push_account_id, the events the caller's clients get, and what reads back.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
beforeEach(() => t.server.world.reset());
afterAll(async () => {
  await t.close();
});

// 33 bytes: the cipher byte 0x31 and a 32-byte key (the real server's own test values).
const KEY = 'MY+paNlyduYJRQFNZva8w7Gv3PkBua9kIj581F9Vr301';
const OTHER_KEY = 'MTaUDJDMWypQ1WufZ1NRTHSSvgYtXh1qVNSjN3aBiEFt';
const keyFields = { push_key: KEY, push_key_id: 2408 };
const tokenFields = {
  token_kind: 'fcm',
  token_id: 'hGsEWGmyyfI=',
  bouncer_public_key: 'bouncer-public-key',
  encrypted_push_registration: 'sealed',
};
const at = (level: number, who = 'hamlet') => t.as(who, { 'X-Mock-Feature-Level': String(level) });

async function newDevice(who = 'hamlet'): Promise<number> {
  return (await t.as(who).post('/register_client_device')).body.device_id;
}
const deviceOf = async (id: number) =>
  (await t.as('hamlet').post('/register', { fetch_event_types: ['device'] })).body.devices[String(id)];
const sentTo = (deviceId: number) =>
  t.server.world.store.sentPushNotifications.filter((n) => n.device_id === deviceId).length;

describe('POST /mobile_push/register (FL 468)', () => {
  it('registers key and token at once: two events, the token confirmed, the device reachable by the E2EE test', async () => {
    const id = await newDevice();
    const q = await registerQueue(t, 'hamlet', ['device']);
    const now = t.server.clock.now();
    const r = await t.as('hamlet').post('/mobile_push/register', { device_id: id, ...keyFields, ...tokenFields });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const events = await eventsOf(t, 'hamlet', q);
    expect(events).toEqual([
      {
        id: 0,
        type: 'device',
        op: 'update',
        device_id: id,
        push_key_id: 2408,
        pending_push_token_id: 'hGsEWGmyyfI=',
        push_token_last_updated_timestamp: expect.any(Number),
        push_registration_error_code: null,
      },
      {
        id: 1,
        type: 'device',
        op: 'update',
        device_id: id,
        push_token_id: 'hGsEWGmyyfI=',
        pending_push_token_id: null,
      },
    ]);
    expect(events[0].push_token_last_updated_timestamp).toBeGreaterThanOrEqual(now);
    expect(await deviceOf(id)).toEqual({
      push_key_id: 2408,
      push_token_id: 'hGsEWGmyyfI=',
      pending_push_token_id: null,
      push_token_last_updated_timestamp: events[0].push_token_last_updated_timestamp,
      push_registration_error_code: null,
    });
    expect(t.server.world.store.pushDevices.get(id)).toMatchObject({ platform: 'android', push_token_kind: 'fcm' });
    expect((await t.as('hamlet').post('/mobile_push/e2ee/test_notification', { device_id: id })).status).toBe(200);
    expect(sentTo(id)).toBe(1);
    // The same registration again changes nothing and tells nobody.
    expect(
      (await t.as('hamlet').post('/mobile_push/register', { device_id: id, ...keyFields, ...tokenFields })).status,
    ).toBe(200);
    expect(await eventsOf(t, 'hamlet', q)).toHaveLength(2);
  });

  it('rotates the key alone (one event) and the token alone (two events), each idempotent', async () => {
    const id = await newDevice();
    await t.as('hamlet').post('/mobile_push/register', { device_id: id, ...keyFields, ...tokenFields });
    const q = await registerQueue(t, 'hamlet', ['device']);
    expect(
      (await t.as('hamlet').post('/mobile_push/register', { device_id: id, push_key: OTHER_KEY, push_key_id: 1144 }))
        .status,
    ).toBe(200);
    expect(
      (await t.as('hamlet').post('/mobile_push/register', { device_id: id, push_key: OTHER_KEY, push_key_id: 1144 }))
        .status,
    ).toBe(200);
    const rotated = { ...tokenFields, token_id: 'AAECAwQFBgc=' };
    expect((await t.as('hamlet').post('/mobile_push/register', { device_id: id, ...rotated })).status).toBe(200);
    expect((await t.as('hamlet').post('/mobile_push/register', { device_id: id, ...rotated })).status).toBe(200);
    const events = await eventsOf(t, 'hamlet', q);
    expect(
      events.map(
        ({ id: _id, type: _type, op: _op, device_id: _device, push_token_last_updated_timestamp: _ts, ...rest }) =>
          rest,
      ),
    ).toEqual([
      { push_key_id: 1144 },
      { pending_push_token_id: 'AAECAwQFBgc=', push_registration_error_code: null },
      { push_token_id: 'AAECAwQFBgc=', pending_push_token_id: null },
    ]);
    expect(await deviceOf(id)).toMatchObject({
      push_key_id: 1144,
      push_token_id: 'AAECAwQFBgc=',
      pending_push_token_id: null,
    });
  });

  it('keeps a token ID as 8 bytes, as the real server stores it; the event echoes what the client sent', async () => {
    const id = await newDevice();
    const q = await registerQueue(t, 'hamlet', ['device']);
    await t
      .as('hamlet')
      .post('/mobile_push/register', { device_id: id, ...keyFields, ...tokenFields, token_id: 'AQ==' });
    expect((await eventsOf(t, 'hamlet', q))[1]).toMatchObject({ push_token_id: 'AQ==' });
    expect((await deviceOf(id)).push_token_id).toBe('AAAAAAAAAAE=');
  });

  it("refuses with the real server's wording, in its order, changing nothing", async () => {
    const id = await newDevice();
    const bad = async (params: Record<string, unknown>, msg: string, who = 'hamlet') =>
      expectError(await t.as(who).post('/mobile_push/register', params), 400, 'BAD_REQUEST', msg);
    await bad(
      { device_id: id, ...keyFields, ...tokenFields },
      'This endpoint does not accept bot requests.',
      'hamlet-bot',
    );
    await bad({ device_id: 3, ...keyFields, ...tokenFields }, 'Invalid `device_id`');
    await bad({ device_id: 999, ...keyFields, ...tokenFields }, 'Invalid `device_id`');
    await bad(
      {
        device_id: id,
        push_key: KEY,
        token_kind: 'fcm',
        encrypted_push_registration: 'sealed',
        bouncer_public_key: 'b',
      },
      'Missing parameters: must provide either all push key fields, all token fields, or both.',
    );
    await bad({ device_id: id, ...keyFields }, 'No push registration exists to rotate key for.');
    await bad({ device_id: id, ...tokenFields }, 'No push registration exists to rotate token for.');
    await bad({ device_id: id, ...tokenFields, token_id: '@abcdefg' }, '`token_id` is not Base64 encoded');
    for (const pushKey of [
      '@abcdefg',
      'abcd',
      Buffer.concat([Buffer.from([0x32]), Buffer.from(KEY, 'base64').subarray(1)]).toString('base64'),
    ]) {
      await bad({ device_id: id, ...tokenFields, ...keyFields, push_key: pushKey }, 'Invalid `push_key`');
    }
    await bad(
      { device_id: id, ...tokenFields, token_kind: 'gcm' },
      'Invalid token_kind: Value error, Not in the list of possible values',
    );
    for (const pushKeyId of [-1, 4294967296]) {
      await bad(
        { device_id: id, ...keyFields, push_key_id: pushKeyId },
        'Invalid push_key_id: Value error, Not a valid unsigned 32-bit integer',
      );
    }
    expectError(
      await t.as('hamlet').post('/mobile_push/register', { ...keyFields }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'device_id' argument",
    );
    expect(await deviceOf(id)).toEqual({
      push_key_id: null,
      push_token_id: null,
      pending_push_token_id: null,
      push_token_last_updated_timestamp: null,
      push_registration_error_code: null,
    });
    expectError(
      await t.as('hamlet').post('/mobile_push/e2ee/test_notification', { device_id: id }),
      400,
      'NO_ACTIVE_PUSH_DEVICE',
      'No active registered push device',
    );
  });

  it("answers a token ID too large for the real server's 64-bit column with its internal error", async () => {
    const id = await newDevice();
    const r = await t.as('hamlet').post('/mobile_push/register', {
      device_id: id,
      ...keyFields,
      ...tokenFields,
      token_id: Buffer.alloc(9, 0x7f).toString('base64'),
    });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
  });

  it('reads a long token ID in time linear in its length: sign bytes in front still fit, a long one is refused at once', async () => {
    const id = await newDevice();
    const padded = Buffer.concat([Buffer.alloc(3, 0xff), Buffer.from('ffffffffffffff01', 'hex')]).toString('base64');
    expect(
      (
        await t
          .as('hamlet')
          .post('/mobile_push/register', { device_id: id, ...keyFields, ...tokenFields, token_id: padded })
      ).status,
    ).toBe(200);
    expect((await deviceOf(id)).pending_push_token_id ?? (await deviceOf(id)).push_token_id).toBe(
      Buffer.from('ffffffffffffff01', 'hex').toString('base64'),
    );
    const started = performance.now();
    const long = await t.as('hamlet').post('/mobile_push/register', {
      device_id: id,
      ...keyFields,
      ...tokenFields,
      token_id: Buffer.alloc(600_000, 0x11).toString('base64'),
    });
    expect(long.status).toBe(500);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('POST /mobile_push/register before FL 468 (push_account_id)', () => {
  const oldForm = {
    token_kind: 'apns',
    push_account_id: 2408,
    push_public_key: 'push-public-key',
    bouncer_public_key: 'bouncer-public-key',
    encrypted_push_registration: 'sealed',
  };

  it("registers by push_account_id: a push_device event, register's push_devices, and the E2EE test by push_account_id", async () => {
    const q = (await at(467).post('/register', { event_types: ['push_device', 'device'], fetch_event_types: [] })).body
      .queue_id;
    const r = await at(467).post('/mobile_push/register', oldForm);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      { id: 0, type: 'push_device', push_account_id: 2408, status: 'active' },
    ]);
    const reg = await at(467).post('/register', { fetch_event_types: ['push_device', 'device'] });
    expect(reg.body.push_devices).toEqual({
      1: { status: 'active', error_code: null },
      2: { status: 'active', error_code: null },
      2408: { status: 'active', error_code: null },
    });
    expect(reg.body.devices).toBeUndefined();
    // Registering it again changes nothing.
    expect((await at(467).post('/mobile_push/register', oldForm)).status).toBe(200);
    expect(await eventsOf(t, 'hamlet', q)).toHaveLength(1);
    expect((await at(467).post('/mobile_push/e2ee/test_notification', { push_account_id: 2408 })).status).toBe(200);
    const device = t.server.world.store.pushDevices.find((d) => d.push_account_id === 2408)!;
    expect(device).toMatchObject({ user_id: t.user('hamlet').user_id, platform: 'ios', push_token_kind: 'apns' });
    expect(sentTo(device.device_id)).toBe(1);
    // From 468, register shows devices and no push_devices.
    const now = await t.as('hamlet').post('/register', { fetch_event_types: ['push_device', 'device'] });
    expect(now.body.push_devices).toBeUndefined();
    expect(Object.keys(now.body.devices)).toEqual(['1', '2', String(device.device_id)]);
  });

  it('gives push_account_id as a string in events before FL 450', async () => {
    const q = (await at(449).post('/register', { event_types: ['push_device'], fetch_event_types: [] })).body.queue_id;
    await at(449).post('/mobile_push/register', oldForm);
    expect(await eventsOf(t, 'hamlet', q)).toMatchObject([
      { type: 'push_device', push_account_id: '2408', status: 'active' },
    ]);
  });

  it('requires every field before FL 468, ignores device_id, and does not exist before FL 406', async () => {
    const { token_kind: _kind, ...withoutKind } = oldForm;
    expectError(
      await at(467).post('/mobile_push/register', withoutKind),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'token_kind' argument",
    );
    const { push_public_key: _key, ...withoutKey } = oldForm;
    expectError(
      await at(467).post('/mobile_push/register', withoutKey),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'push_public_key' argument",
    );
    const r = await at(467).post('/mobile_push/register', { ...oldForm, device_id: 1 });
    expect(r.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['device_id'] });
    expect((await at(405).post('/mobile_push/register', oldForm)).status).toBe(404);
  });

  it('gives a queue registered before FL 468 no device events, and a newer one no push_device events', async () => {
    const olderQ = (await at(467).post('/register', { event_types: ['push_device', 'device'], fetch_event_types: [] }))
      .body.queue_id;
    const newerQ = await registerQueue(t, 'hamlet', ['push_device', 'device']);
    await t.as('hamlet').post('/register_client_device');
    await at(467).post('/mobile_push/register', oldForm);
    expect((await eventsOf(t, 'hamlet', olderQ)).map((e) => e.type)).toEqual(['push_device']);
    expect((await eventsOf(t, 'hamlet', newerQ)).map((e) => e.type)).toEqual(['device']);
  });
});
