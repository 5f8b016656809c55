// POST /mobile_push/register: registering a device for end-to-end encrypted push notifications.
// From FL 468 the device is a logged-in device (devices.ts) and a call sets the push key, the
// token, or both, with the real server's checks in its order; from FL 406 to 467 a registration
// was named by a client-chosen push_account_id and took every field at once.
//
// The real server hands the encrypted registration to the push relay in the background and tells
// the client the outcome with a second event. The mock has no relay and cannot read the
// registration: it takes every one as the relay would a valid one, at once, so the second event
// follows the first within the request (as the real server's development setup does, whose relay
// runs in-process).
import { badRequest, internalError } from '../../errors.js';
import type { PushDevice } from '../../store/state.js';
import type { Ctx, ParamsOf } from '../context.js';
import { requireHuman } from '../users/roles.js';
import { ownDevice } from './devices.js';

type Params = ParamsOf<'register-push-device'>;
type TokenKind = 'apns' | 'fcm';

const platformOf = (kind: TokenKind) => (kind === 'apns' ? ('ios' as const) : ('android' as const));

/** Python's base64.b64decode(..., validate=True): the standard alphabet, with proper padding. */
function strictBase64(text: string): Buffer | null {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)
    ? Buffer.from(text, 'base64')
    : null;
}

/** The push key in canonical base64: 33 bytes, a cipher byte 0x31 (libsodium's secretbox) and the key. */
function checkPushKey(text: string): string {
  const bytes = strictBase64(text);
  if (!bytes || bytes.length !== 33 || bytes[0] !== 0x31) throw badRequest('Invalid `push_key`');
  return bytes.toString('base64');
}

/**
 * A token ID as the real server keeps it: the bytes read as one signed big-endian integer, shown
 * again as 8 bytes of base64 (so "AQ==" is kept as "AAAAAAAAAAE="). An ID whose integer does not
 * fit 64 bits breaks the real server's database column: an internal error there, and here.
 */
function tokenIdOf(text: string): string {
  const bytes = strictBase64(text);
  if (!bytes) throw badRequest('`token_id` is not Base64 encoded');
  // Sign-extended to 8 bytes; longer IDs fit only when their extra leading bytes are the sign's.
  // No big-integer arithmetic over the whole ID: its length is the client's choice.
  const negative = bytes.length > 0 && (bytes[0] & 0x80) !== 0;
  const out = Buffer.alloc(8, negative ? 0xff : 0);
  if (bytes.length <= 8) {
    bytes.copy(out, 8 - bytes.length);
  } else {
    const fill = negative ? 0xff : 0;
    const extra = bytes.subarray(0, bytes.length - 8);
    if (extra.some((b) => b !== fill) || ((bytes[bytes.length - 8] & 0x80) !== 0) !== negative) throw internalError();
    bytes.copy(out, 0, bytes.length - 8);
  }
  return out.toString('base64');
}

function deviceUpdate(ctx: Ctx, device: PushDevice, change: Record<string, unknown>): void {
  ctx.events.publish([ctx.actor.user_id], { type: 'device', op: 'update', device_id: device.device_id, ...change });
}

/** The relay confirmed the pending token: it becomes the device's token. `given`: the ID as the client wrote it. */
function confirmToken(ctx: Ctx, device: PushDevice, given: string): void {
  ctx.store.pushDevices.update(device, {
    push_token_id: device.pending_push_token_id ?? null,
    pending_push_token_id: null,
  });
  deviceUpdate(ctx, device, { push_token_id: given, pending_push_token_id: null });
}

export function registerPushDevice(ctx: Ctx, p: Params): void {
  requireHuman(ctx.actor);
  if (p.device_id === undefined) return registerPushAccount(ctx, p);
  let device = ownDevice(ctx, p.device_id);
  const keyFields = p.push_key !== undefined && p.push_key_id !== undefined;
  const tokenFields =
    p.token_kind !== undefined &&
    p.token_id !== undefined &&
    p.bouncer_public_key !== undefined &&
    p.encrypted_push_registration !== undefined;
  if (!keyFields && !tokenFields)
    throw badRequest('Missing parameters: must provide either all push key fields, all token fields, or both.');

  if (!tokenFields) {
    if (device.push_key_id == null) throw badRequest('No push registration exists to rotate key for.');
    const key = checkPushKey(p.push_key!);
    if (device.push_key_id === p.push_key_id && device.push_key === key) return;
    device = ctx.store.pushDevices.update(device, { push_key: key, push_key_id: p.push_key_id! });
    return deviceUpdate(ctx, device, { push_key_id: p.push_key_id });
  }

  // The relay has not answered an earlier registration (never, with the mock's instant relay).
  if (device.push_registration_error_code == null && device.pending_push_token_id != null) {
    throw badRequest('A registration for the device already in progress.');
  }
  const given = p.token_id!;
  const tokenId = tokenIdOf(given);
  const kind = p.token_kind as TokenKind;
  const now = ctx.clock.now();
  if (!keyFields) {
    if (device.push_key_id == null) throw badRequest('No push registration exists to rotate token for.');
    if (device.push_registration_error_code == null && device.push_token_id === tokenId) return;
    device = ctx.store.pushDevices.update(device, {
      pending_push_token_id: tokenId,
      push_token_last_updated_timestamp: now,
      push_registration_error_code: null,
    });
    deviceUpdate(ctx, device, {
      pending_push_token_id: given,
      push_token_last_updated_timestamp: now,
      push_registration_error_code: null,
    });
  } else {
    const key = checkPushKey(p.push_key!);
    const same =
      device.push_registration_error_code == null &&
      device.push_key_id === p.push_key_id &&
      device.push_key === key &&
      device.push_token_id === tokenId &&
      device.push_token_kind === kind;
    if (same) return;
    device = ctx.store.pushDevices.update(device, {
      platform: platformOf(kind),
      push_key: key,
      push_key_id: p.push_key_id!,
      pending_push_token_id: tokenId,
      push_token_kind: kind,
      push_token_last_updated_timestamp: now,
      push_registration_error_code: null,
    });
    deviceUpdate(ctx, device, {
      push_key_id: p.push_key_id,
      pending_push_token_id: given,
      push_token_last_updated_timestamp: now,
      push_registration_error_code: null,
    });
  }
  confirmToken(ctx, device, given);
}

/**
 * The FL 406-467 form: a registration named by the client's push_account_id, new or renewed.
 * Registering it again changes nothing; the relay's answer comes as a `push_device` event.
 */
function registerPushAccount(ctx: Ctx, p: Params): void {
  const accountId = p.push_account_id!;
  const kind = p.token_kind as TokenKind;
  const existing = ctx.store.pushDevices.find(
    (d) => d.user_id === ctx.actor.user_id && d.push_account_id === accountId,
  );
  if (existing) return;
  ctx.store.pushDevices.insert({
    device_id: ctx.store.nextId('push_devices'),
    user_id: ctx.actor.user_id,
    platform: platformOf(kind),
    registered_at: ctx.clock.now(),
    push_account_id: accountId,
    push_key: p.push_public_key!,
    push_token_kind: kind,
  });
  const shownId = ctx.supports('push_device_account_id_integer') ? accountId : String(accountId);
  ctx.events.publish([ctx.actor.user_id], { type: 'push_device', push_account_id: shownId, status: 'active' });
}
