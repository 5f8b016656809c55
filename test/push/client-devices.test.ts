// Logged-in devices (FL 468 and 470): POST /register_client_device and POST /remove_client_device,
// the `device` events the caller's clients get, and register's `devices` read back.
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

const noRegistration = {
  push_key_id: null,
  push_token_id: null,
  pending_push_token_id: null,
  push_token_last_updated_timestamp: null,
  push_registration_error_code: null,
};
const devicesOf = async (who: string, level?: number) => {
  const headers: Record<string, string> = level === undefined ? {} : { 'X-Mock-Feature-Level': String(level) };
  return (await t.as(who, headers).post('/register', { fetch_event_types: ['device'] })).body.devices;
};

describe('POST /register_client_device', () => {
  it('records a device without push registration, tells only the caller, and register lists it', async () => {
    const hamletQ = await registerQueue(t, 'hamlet', ['device']);
    const othelloQ = await registerQueue(t, 'othello', ['device']);
    const r = await t.as('hamlet').post('/register_client_device');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', device_id: 4 });
    expect(await eventsOf(t, 'hamlet', hamletQ)).toEqual([{ id: 0, type: 'device', op: 'add', device_id: 4 }]);
    expect(await eventsOf(t, 'othello', othelloQ)).toEqual([]);
    const devices = await devicesOf('hamlet');
    expect(Object.keys(devices)).toEqual(['1', '2', '4']);
    expect(devices['4']).toEqual(noRegistration);
    expect(devices['1']).toEqual({
      push_key_id: 1001,
      push_token_id: 'hGsEWGmyyfI=',
      pending_push_token_id: null,
      push_token_last_updated_timestamp: 1792670400,
      push_registration_error_code: null,
    });
    expect(await devicesOf('othello')).toEqual({});
  });

  it('takes bots too, leaves out devices registered by token, and does not exist before FL 468', async () => {
    const bot = await t.as('hamlet-bot').post('/register_client_device');
    expect(bot.status).toBe(200);
    expect(await devicesOf('hamlet-bot')).toEqual({ [bot.body.device_id]: noRegistration });
    await t.as('cordelia').post('/users/me/android_gcm_reg_id', { token: 'android-token' });
    expect(await devicesOf('cordelia')).toEqual({});
    expect((await t.as('hamlet', { 'X-Mock-Feature-Level': '467' }).post('/register_client_device')).status).toBe(404);
    // Register at 467 knows no `devices` section.
    expect(await devicesOf('hamlet', 467)).toBeUndefined();
  });
});

describe('POST /remove_client_device', () => {
  it("forgets the device and its registration; the caller's clients get `remove`", async () => {
    const q = await registerQueue(t, 'hamlet', ['device']);
    const r = await t.as('hamlet').post('/remove_client_device', { device_id: 2 });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect(await eventsOf(t, 'hamlet', q)).toEqual([{ id: 0, type: 'device', op: 'remove', device_id: 2 }]);
    expect(Object.keys(await devicesOf('hamlet'))).toEqual(['1']);
    // The removed device gets no test notification any more.
    expectError(
      await t.as('hamlet').post('/mobile_push/e2ee/test_notification', { device_id: 2 }),
      400,
      'NO_ACTIVE_PUSH_DEVICE',
      'No active registered push device',
    );
  });

  it("refuses another user's device, an unknown one and one registered by token, changing nothing", async () => {
    await t.as('cordelia').post('/users/me/android_gcm_reg_id', { token: 'android-token' });
    const tokenDevice = t.server.world.store.pushDevices.find((d) => d.token === 'android-token')!.device_id;
    for (const [who, id] of [
      ['hamlet', 3],
      ['hamlet', 999],
      ['cordelia', tokenDevice],
    ] as const) {
      expectError(
        await t.as(who).post('/remove_client_device', { device_id: id }),
        400,
        'BAD_REQUEST',
        'Invalid `device_id`',
      );
    }
    expectError(
      await t.as('hamlet').post('/remove_client_device'),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'device_id' argument",
    );
    expect(t.server.world.store.pushDevices.all()).toHaveLength(4);
    expect(
      (await t.as('hamlet', { 'X-Mock-Feature-Level': '469' }).post('/remove_client_device', { device_id: 1 })).status,
    ).toBe(404);
  });
});
