// POST /mobile_push/e2ee/test_notification: "sends" a test notification to one of the caller's
// devices registered for end-to-end encrypted notifications, or to all of them. Nothing leaves the
// mock; each notification is recorded in the store (sent_push_notifications) so that tests and the
// inspector can see it.
import { ApiError } from '../../errors.js';
import type { PushDevice } from '../../store/state.js';
import type { Ctx } from '../context.js';
import { isLoggedInDevice } from './devices.js';

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
  for (const device of devices) {
    store.sentPushNotifications.insert({
      id: store.nextId('sent_push_notifications'),
      user_id: actor.user_id,
      device_id: device.device_id,
      kind: 'test',
      sent_at: now,
    });
  }
}
