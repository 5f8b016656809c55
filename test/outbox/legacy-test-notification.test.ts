// POST /mobile_push/test_notification in the outbox: the real server's test notification to the
// caller's devices registered by token (every one, or the one named), in each device's form: the
// FCM data with `event: "test"` and the time, the APNs alert naming the organization. Devices
// registered for end-to-end encryption get none (they have their own test notification).
import { describe, expect, it } from 'vitest';
import { outboxSuite } from '../helpers/outbox-suite.js';
import { expectError } from '../helpers/errors.js';

const suite = outboxSuite();

const NOW_MS = Date.parse('2026-11-20T10:00:00Z');
const pushes = async () => (await suite.control.outbox.list({ kind: 'push' })).items.reverse();

/** get_base_payload: the server, the organization and the user. */
function base(userId: number) {
  const realm = suite.t.server.world.store.realm;
  return {
    server: new URL(realm.url).host,
    realm_id: realm.id,
    realm_name: realm.name,
    realm_uri: realm.url,
    realm_url: realm.url,
    user_id: userId,
  };
}

describe('POST /mobile_push/test_notification', () => {
  it("sends each of the caller's token devices the test notification in its form", async () => {
    await suite.control.clock.freeze();
    await suite.control.clock.set(NOW_MS);
    await suite.t.as('cordelia').post('/users/me/android_gcm_reg_id', { token: 'cordelia-fcm' });
    await suite.t.as('cordelia').post('/users/me/apns_device_token', { token: 'c0ffee00', appid: 'org.zulip.Zulip' });
    await suite.t.as('othello').post('/users/me/android_gcm_reg_id', { token: 'othello-fcm' });
    const cordelia = suite.t.user('cordelia').user_id;
    const [fcm, apns] = suite.t.server.world.store.pushDevices.filter((d) => d.user_id === cordelia);

    expect((await suite.t.as('cordelia').post('/mobile_push/test_notification')).status).toBe(200);
    const realm = suite.t.server.world.store.realm;
    expect(await pushes()).toEqual([
      {
        id: expect.any(Number),
        time: NOW_MS,
        kind: 'push',
        user_id: cordelia,
        device_id: fcm.device_id,
        form: 'android',
        event: 'test',
        message_ids: [],
        payload: { data: { ...base(cordelia), event: 'test', time: NOW_MS / 1000 }, options: { priority: 'high' } },
      },
      {
        id: expect.any(Number),
        time: NOW_MS,
        kind: 'push',
        user_id: cordelia,
        device_id: apns.device_id,
        form: 'ios',
        event: 'test',
        message_ids: [],
        payload: {
          alert: {
            title: 'Test notification',
            body: `This is a test notification from ${realm.name} (${realm.url}).`,
          },
          sound: 'default',
          custom: { zulip: { ...base(cordelia), event: 'test' } },
        },
      },
    ]);
    await suite.control.clock.real();
  });

  it('sends only to the device named by its token, and nothing for an unknown token or no device', async () => {
    await suite.t.as('cordelia').post('/users/me/android_gcm_reg_id', { token: 'cordelia-fcm' });
    await suite.t.as('cordelia').post('/users/me/apns_device_token', { token: 'c0ffee00', appid: 'org.zulip.Zulip' });
    await suite.t.as('cordelia').post('/mobile_push/test_notification', { token: 'c0ffee00' });
    expect((await pushes()).map((p: any) => [p.form, p.event])).toEqual([['ios', 'test']]);

    expectError(
      await suite.t.as('cordelia').post('/mobile_push/test_notification', { token: 'othello-fcm' }),
      400,
      'INVALID_PUSH_DEVICE_TOKEN',
      'Device not recognized',
    );
    // Hamlet's devices are registered for end-to-end encryption, not by token: none is notified.
    expect((await suite.t.as('hamlet').post('/mobile_push/test_notification')).status).toBe(200);
    expect(await pushes()).toHaveLength(1);
  });
});
