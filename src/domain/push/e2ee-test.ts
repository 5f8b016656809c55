// POST /mobile_push/e2ee/test_notification: "sends" a test notification to one of the caller's
// devices registered for end-to-end encrypted notifications, or to all of them. Nothing leaves the
// mock: each notification is recorded in the store (sent_push_notifications) and, as the push
// request the bouncer would get (sealed with the device's push key), in the world's outbox.
import { ApiError } from '../../errors.js';
import type { PushDevice } from '../../store/state.js';
import type { Ctx } from '../context.js';
import { outboxOf } from '../outbox/outbox.js';
import { isLoggedInDevice } from './devices.js';
import { e2eePushRequest } from './e2ee-envelope.js';

const noActiveDevice = () => new ApiError('NO_ACTIVE_PUSH_DEVICE', 'No active registered push device');

/**
 * The target: from FL 468 a device (by ID) whose token the push relay confirmed; before, a
 * registration by push_account_id (every one is confirmed at once by the mock's relay).
 * Devices registered by a legacy token (tokens.ts) get no end-to-end encrypted notifications.
 */
export function sendTestPushNotification(ctx: Ctx, target: { deviceId?: number; pushAccountId?: number }): void {
  const { store, actor } = ctx;
  const byDeviceId = ctx.hasField('RegisterState', 'devices');
  const active = (d: PushDevice) =>
    isLoggedInDevice(d) && (byDeviceId ? d.push_token_id != null : d.push_account_id !== undefined);
  let devices = store.pushDevices.filter((d) => d.user_id === actor.user_id && active(d));
  // A device the caller has not registered counts as no device, as on the real server.
  if (byDeviceId && target.deviceId !== undefined) devices = devices.filter((d) => d.device_id === target.deviceId);
  if (!byDeviceId && target.pushAccountId !== undefined)
    devices = devices.filter((d) => d.push_account_id === target.pushAccountId);
  if (!devices.length) throw noActiveDevice();
  const now = ctx.clock.now();
  const outbox = outboxOf(store);
  // The JSON the real server seals (api_docs/mobile-notifications.md, "Test push notification").
  const data = {
    realm_name: store.realm.name,
    realm_url: store.realm.url,
    time: now,
    type: 'test',
    user_id: actor.user_id,
  };
  const form = { alert: true, byKeyId: ctx.supports('e2ee_push_key_id') };
  for (const device of devices) {
    store.sentPushNotifications.insert({
      id: store.nextId('sent_push_notifications'),
      user_id: actor.user_id,
      device_id: device.device_id,
      kind: 'test',
      sent_at: now,
    });
    outbox.record(
      {
        kind: 'push',
        user_id: actor.user_id,
        device_id: device.device_id,
        form: 'e2ee',
        event: 'test',
        message_ids: [],
        payload: e2eePushRequest(device, data, form),
        plaintext: data,
      },
      ctx.clock.nowMs(),
    );
  }
}
