// POST /mobile_push/e2ee/test_notification: "sends" a test notification to one of the caller's
// registered devices, or to all of them. Nothing leaves the mock; each notification is recorded
// in the store (sent_push_notifications) so that tests and the inspector can see it.
import { ApiError } from '../../errors.js';
import type { Ctx } from '../context.js';

const noActiveDevice = () => new ApiError('NO_ACTIVE_PUSH_DEVICE', 'No active registered push device');

export function sendTestPushNotification(ctx: Ctx, deviceId: number | undefined): void {
  const { store, actor } = ctx;
  // Devices registered by a legacy token (tokens.ts) get no end-to-end encrypted notifications.
  let devices = store.pushDevices.filter((d) => d.user_id === actor.user_id && d.token === undefined);
  // A device the caller has not registered counts as no device, as on the real server.
  if (deviceId !== undefined) devices = devices.filter((d) => d.device_id === deviceId);
  if (!devices.length) throw noActiveDevice();
  const now = ctx.clock.now();
  for (const device of devices) {
    store.sentPushNotifications.insert({
      id: store.nextId('sent_push_notifications'), user_id: actor.user_id, device_id: device.device_id, kind: 'test', sent_at: now,
    });
  }
}
