// Registering devices by push token (APNs, FCM), unregistering them, and the legacy test
// notification by token (devices registered this way are not E2EE devices).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
beforeEach(() => t.server.world.reset());
afterAll(async () => {
  await t.close();
});

const devicesOf = (who: string) => t.server.world.store.pushDevices.filter((d) => d.user_id === t.user(who).user_id);
const sentTo = (who: string) =>
  t.server.world.store.sentPushNotifications.filter((n) => n.user_id === t.user(who).user_id);

describe('POST/DELETE /users/me/apns_device_token and /users/me/android_gcm_reg_id', () => {
  it('registers a device once per token, and unregisters it', async () => {
    expect(devicesOf('cordelia')).toEqual([]);
    const ok = await t
      .as('cordelia')
      .post('/users/me/apns_device_token', { token: 'c0ffee00', appid: 'org.zulip.Zulip' });
    expect(ok.body).toEqual({ result: 'success', msg: '' });
    await t.as('cordelia').post('/users/me/apns_device_token', { token: 'c0ffee00', appid: 'org.zulip.Zulip' });
    await t.as('cordelia').post('/users/me/android_gcm_reg_id', { token: 'android-token' });
    expect(devicesOf('cordelia').map((d) => [d.platform, d.token, d.ios_app_id])).toEqual([
      ['ios', 'c0ffee00', 'org.zulip.Zulip'],
      ['android', 'android-token', undefined],
    ]);
    expect((await t.as('cordelia').delete('/users/me/apns_device_token', { token: 'c0ffee00' })).status).toBe(200);
    expect((await t.as('cordelia').delete('/users/me/android_gcm_reg_id', { token: 'android-token' })).status).toBe(
      200,
    );
    expect(devicesOf('cordelia')).toEqual([]);
  });

  it("refuses bad tokens, a bad app ID, another user's token and bots", async () => {
    const bad = (res: any, msg: string) => expectError(res, 400, 'BAD_REQUEST', msg);
    bad(await t.as('hamlet').post('/users/me/android_gcm_reg_id', { token: '' }), 'Empty or invalid length token');
    bad(
      await t.as('hamlet').post('/users/me/android_gcm_reg_id', { token: 'x'.repeat(4097) }),
      'Empty or invalid length token',
    );
    bad(
      await t.as('hamlet').post('/users/me/apns_device_token', { token: 'not-hex', appid: 'org.zulip.Zulip' }),
      'Invalid APNS token',
    );
    bad(
      await t.as('hamlet').post('/users/me/apns_device_token', { token: 'c0ffee00', appid: 'org zulip' }),
      'Invalid app ID',
    );
    expectError(
      await t.as('hamlet').post('/users/me/apns_device_token', { token: 'c0ffee00' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'appid' argument",
    );
    await t.as('othello').post('/users/me/android_gcm_reg_id', { token: 'othellos' });
    bad(await t.as('hamlet').delete('/users/me/android_gcm_reg_id', { token: 'othellos' }), 'Token does not exist');
    bad(
      await t.as('hamlet-bot').post('/users/me/android_gcm_reg_id', { token: 'bot' }),
      'This endpoint does not accept bot requests.',
    );
    expect(devicesOf('hamlet-bot')).toEqual([]);
  });
});

describe('POST /mobile_push/test_notification', () => {
  it('notifies the device with the token, or every device registered by token; an unknown token is refused', async () => {
    await t.as('cordelia').post('/users/me/android_gcm_reg_id', { token: 'one' });
    await t.as('cordelia').post('/users/me/android_gcm_reg_id', { token: 'two' });
    expect((await t.as('cordelia').post('/mobile_push/test_notification', { token: 'one' })).status).toBe(200);
    expect(sentTo('cordelia')).toHaveLength(1);
    await t.as('cordelia').post('/mobile_push/test_notification');
    expect(sentTo('cordelia')).toHaveLength(3);
    expectError(
      await t.as('cordelia').post('/mobile_push/test_notification', { token: 'three' }),
      400,
      'INVALID_PUSH_DEVICE_TOKEN',
      'Device not recognized',
    );
    expectError(
      await t.as('hamlet').post('/mobile_push/test_notification', { token: 'one' }),
      400,
      'INVALID_PUSH_DEVICE_TOKEN',
      'Device not recognized',
    );
  });

  it('does not count a device registered by token for the E2EE test notification', async () => {
    await t.as('cordelia').post('/users/me/apns_device_token', { token: 'c0ffee00', appid: 'org.zulip.Zulip' });
    expectError(
      await t.as('cordelia').post('/mobile_push/e2ee/test_notification'),
      400,
      'NO_ACTIVE_PUSH_DEVICE',
      'No active registered push device',
    );
    expect(sentTo('cordelia')).toEqual([]);
  });
});
