// The legacy push registration by token: POST/DELETE /users/me/apns_device_token (iOS) and
// /users/me/android_gcm_reg_id (Android, FCM), and POST /mobile_push/test_notification, which
// notifies devices by token (recorded in the outbox). These devices are kept with the logged-in
// ones (store.pushDevices, marked by their token) but get no end-to-end encrypted notifications.
// As on the real server, bots may not register devices.
import { ApiError, badRequest } from '../../errors.js';
import type { PushDevice } from '../../store/state.js';
import type { Ctx } from '../context.js';
import { requireHuman } from '../users/roles.js';
import { outboxOf } from '../outbox/outbox.js';
import { androidTestPayload, iosTestPayload } from './legacy-payloads.js';

type Platform = NonNullable<PushDevice['platform']>;
const MAX_TOKEN_LENGTH = 4096;

/**
 * Whether Python's lenient base64 decoding (binascii, not strict) takes the text: characters
 * outside the alphabet are skipped, a complete padding ends the data, and the data characters
 * must not stop one past a multiple of four nor lack their padding ('apple-tokenbb' decodes,
 * 'apple-token' does not).
 */
function lenientBase64(text: string): boolean {
  let quadPos = 0;
  let pads = 0;
  for (const ch of text) {
    if (ch === '=') {
      if (quadPos >= 2 && quadPos + ++pads >= 4) return true;
      continue;
    }
    if (!/[A-Za-z0-9+/]/.test(ch)) continue;
    quadPos = (quadPos + 1) % 4;
    pads = 0;
  }
  return quadPos === 0;
}

function checkToken(ctx: Ctx, token: string, platform: Platform): void {
  if (token === '' || token.length > MAX_TOKEN_LENGTH) throw badRequest('Empty or invalid length token');
  if (platform !== 'ios') return;
  // APNs tokens are hexadecimal: pairs of hex digits, spaces allowed between pairs (Python's
  // bytes.fromhex); older servers decoded them as base64 instead (behaviour apns_token_hex).
  const valid = ctx.supports('apns_token_hex') ? /^\s*(?:[0-9a-fA-F]{2}\s*)*$/.test(token) : lenientBase64(token);
  if (!valid) throw badRequest('Invalid APNS token');
}

const ownDevice = (ctx: Ctx, token: string, platform?: Platform) =>
  ctx.store.pushDevices.find(
    (d) => d.user_id === ctx.actor.user_id && d.token === token && (!platform || d.platform === platform),
  );

export function addPushToken(
  ctx: Ctx,
  { token, platform, appId }: { token: string; platform: Platform; appId?: string },
): void {
  requireHuman(ctx.actor);
  if (appId !== undefined && !/^[.a-zA-Z0-9-]+$/.test(appId)) throw badRequest('Invalid app ID');
  checkToken(ctx, token, platform);
  if (ownDevice(ctx, token, platform)) return;
  ctx.store.pushDevices.insert({
    device_id: ctx.store.nextId('push_devices'),
    user_id: ctx.actor.user_id,
    platform,
    registered_at: ctx.clock.now(),
    token,
    ...(appId !== undefined ? { ios_app_id: appId } : {}),
  });
}

export function removePushToken(ctx: Ctx, { token, platform }: { token: string; platform: Platform }): void {
  requireHuman(ctx.actor);
  checkToken(ctx, token, platform);
  const device = ownDevice(ctx, token, platform);
  if (!device) throw badRequest('Token does not exist');
  ctx.store.pushDevices.remove(device);
}

/**
 * POST /mobile_push/test_notification: every device the caller registered with a token, or the
 * one with `token` (of either kind). Each gets the real server's test notification in its form,
 * recorded in the store and in the world's outbox; none at all is no error.
 */
export function sendLegacyTestNotification(ctx: Ctx, { token }: { token?: string }): void {
  requireHuman(ctx.actor);
  let devices: PushDevice[];
  if (token !== undefined) {
    const device = ownDevice(ctx, token);
    if (!device) throw new ApiError('INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized');
    devices = [device];
  } else {
    devices = ctx.store.pushDevices.filter((d) => d.user_id === ctx.actor.user_id && d.token !== undefined);
  }
  const { store, actor } = ctx;
  const now = ctx.clock.now();
  const outbox = outboxOf(store);
  for (const device of devices) {
    store.sentPushNotifications.insert({
      id: store.nextId('sent_push_notifications'),
      user_id: actor.user_id,
      device_id: device.device_id,
      kind: 'test',
      sent_at: now,
    });
    const ios = device.platform === 'ios';
    outbox.record(
      {
        kind: 'push',
        user_id: actor.user_id,
        device_id: device.device_id,
        form: ios ? 'ios' : 'android',
        event: 'test',
        message_ids: [],
        payload: ios ? iosTestPayload(store, actor) : androidTestPayload(store, actor, now),
      },
      ctx.clock.nowMs(),
    );
  }
}
