// The end-to-end encrypted push request, as the real server hands it to its push bouncer for a
// device registered with POST /mobile_push/register: the notification's JSON sealed with the
// device's push key, and around it only what the bouncer and the app need (the device, the ID of
// the key it was sealed with, the FCM priority or the APNs headers and a placeholder alert).
//
// The cipher is the one the push key names (its first byte): 0x31, libsodium's secretbox
// (XSalsa20-Poly1305), with the other 32 bytes as the key. `encrypted_data` is the base64 of a
// random 24-byte nonce followed by the sealed box (Poly1305 tag, then the ciphertext), which is
// what the official app splits and opens.
import { randomFillSync } from 'node:crypto';
import { xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import type { PushDevice } from '../../store/state.js';
import { Memo } from '../../memo.js';

/** The push key's first byte when its cipher is libsodium's secretbox. */
const SECRETBOX_TAG = 0x31;
const KEY_BYTES = 32;
const NONCE_BYTES = 24;

/** The secretbox key of a push key in base64, or null when it names no cipher the mock knows. */
function secretboxKey(pushKey: string): Uint8Array | null {
  const bytes = Buffer.from(pushKey, 'base64');
  if (bytes.length !== 1 + KEY_BYTES || bytes[0] !== SECRETBOX_TAG) return null;
  return bytes.subarray(1);
}

/**
 * Push keys decoded once while they are used (by the key: a notification is sealed for the device
 * as it was when sent, a copy of the device's row).
 */
const KEYS = new Memo<string, Uint8Array | null>(1000);

/** The UTF-8 JSON of a notification, made once when several devices of a user get the same one. */
const PLAINTEXT_BYTES = new WeakMap<object, Uint8Array>();

function jsonBytes(data: Record<string, unknown>): Uint8Array {
  let bytes = PLAINTEXT_BYTES.get(data);
  if (!bytes) PLAINTEXT_BYTES.set(data, (bytes = Buffer.from(JSON.stringify(data), 'utf8')));
  return bytes;
}

/**
 * Nonces are cut from a pool of random bytes filled 256 at a time: one call to the system's
 * random source per nonce costs more than the sealing itself, on the sender's request. A nonce
 * is used (copied into the output) before the pool is refilled.
 */
const NONCE_POOL = Buffer.alloc(NONCE_BYTES * 256);
let poolOffset = NONCE_POOL.length;

function freshNonce(): Buffer {
  if (poolOffset === NONCE_POOL.length) {
    randomFillSync(NONCE_POOL);
    poolOffset = 0;
  }
  const nonce = NONCE_POOL.subarray(poolOffset, poolOffset + NONCE_BYTES);
  poolOffset += NONCE_BYTES;
  return nonce;
}

/** Bytes xsalsa20poly1305 writes before the box into the output it is given (scratch for its Poly1305 key). */
const SCRATCH_BYTES = 16;
const TAG_BYTES = 16;

/**
 * `data` as JSON, sealed with the device's push key: base64 of nonce + box. Null for a key the
 * mock cannot use (a FL 406-467 registration's push_public_key was not checked, so it may be
 * anything). Sealed straight into the buffer that is then encoded, with no copy: the cipher's
 * output (scratch, then the box: tag and ciphertext) starts 8 bytes in, so that the box starts
 * after the 24 bytes of the nonce, which is written over the scratch afterwards (the cipher
 * reads the nonce by reference while it works).
 */
function sealForDevice(pushKey: string, data: Record<string, unknown>): string | null {
  const key = KEYS.get(pushKey, secretboxKey);
  if (!key) return null;
  const plaintext = jsonBytes(data);
  const nonce = freshNonce();
  const out = Buffer.allocUnsafe(NONCE_BYTES + TAG_BYTES + plaintext.length);
  xsalsa20poly1305(key, nonce).encrypt(plaintext, out.subarray(NONCE_BYTES - SCRATCH_BYTES));
  out.set(nonce, 0);
  return out.toString('base64');
}

/** How a push request is shaped at a level and for a notification. */
export interface E2eeRequestForm {
  /** A notification to show (a new message, a test); false for `remove`. */
  alert: boolean;
  /** From FL 468 the payload names the key by the device's push_key_id; before, by push_account_id. */
  byKeyId: boolean;
}

/**
 * The push request for one device. An alert goes at FCM priority high, or as an APNs alert at
 * priority 10 with the placeholder title the app's notification service extension replaces; a
 * `remove` at normal priority, or as an APNs background push at 5.
 */
export function e2eePushRequest(
  device: PushDevice,
  data: Record<string, unknown>,
  { alert, byKeyId }: E2eeRequestForm,
): Record<string, unknown> {
  const payload: Record<string, unknown> = byKeyId
    ? { push_key_id: device.push_key_id ?? null }
    : { push_account_id: device.push_account_id ?? null };
  payload.encrypted_data = device.push_key ? sealForDevice(device.push_key, data) : null;
  if (device.push_token_kind === 'apns') {
    if (alert) payload.aps = { 'mutable-content': 1, alert: { title: 'New notification' } };
    return {
      device_id: device.device_id,
      http_headers: alert
        ? { apns_priority: 10, apns_push_type: 'alert' }
        : { apns_priority: 5, apns_push_type: 'background' },
      payload,
    };
  }
  return { device_id: device.device_id, fcm_priority: alert ? 'high' : 'normal', payload };
}
