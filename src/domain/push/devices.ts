// Logged-in devices (FL 468): POST /register_client_device records one, POST /remove_client_device
// (FL 470) forgets it, and POST /register shows them under `devices`, each with the state of its
// push registration; `device` events keep clients' copies current. The FL 406-467 registrations
// by push_account_id are shown under `push_devices` instead. Devices registered the legacy way by
// push token (tokens.ts) are none of these.
import { badRequest } from '../../errors.js';
import type { PushDevice, User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import type { Ctx } from '../context.js';

/** A logged-in device (or a FL 406-467 registration), not a device registered by push token. */
export const isLoggedInDevice = (d: PushDevice) => d.token === undefined;

/** A device of the caller, as the real server's check_device_id finds it. */
export function ownDevice(ctx: Ctx, deviceId: number): PushDevice {
  const device = ctx.store.pushDevices.get(deviceId);
  if (!device || device.user_id !== ctx.actor.user_id || !isLoggedInDevice(device))
    throw badRequest('Invalid `device_id`');
  return device;
}

/** One entry of register's `devices`: the push registration's state, all null before one. */
function deviceInfo(d: PushDevice): Record<string, unknown> {
  return {
    push_key_id: d.push_key_id ?? null,
    push_token_id: d.push_token_id ?? null,
    pending_push_token_id: d.pending_push_token_id ?? null,
    push_token_last_updated_timestamp: d.push_token_last_updated_timestamp ?? null,
    push_registration_error_code: d.push_registration_error_code ?? null,
  };
}

const loggedInDevicesOf = (store: Store, actor: User) =>
  store.pushDevices.filter((d) => d.user_id === actor.user_id && isLoggedInDevice(d));

/** Register's `devices` section (FL 468; the response leaves it out at older levels). */
export function deviceState(store: Store, actor: User): Record<string, unknown> {
  const devices: Record<string, unknown> = {};
  for (const d of loggedInDevicesOf(store, actor)) devices[String(d.device_id)] = deviceInfo(d);
  return { devices };
}

/**
 * Register's `push_devices` section (FL 406-467): the registrations by push_account_id. The
 * mock's relay answers at once, so every one is active.
 */
export function pushAccountState(store: Store, actor: User): Record<string, unknown> {
  const pushDevices: Record<string, unknown> = {};
  for (const d of loggedInDevicesOf(store, actor)) {
    if (d.push_account_id !== undefined)
      pushDevices[String(d.push_account_id)] = { status: 'active', error_code: null };
  }
  return { push_devices: pushDevices };
}

/** POST /register_client_device: a new device of the caller, with no push registration yet. */
export function registerClientDevice(ctx: Ctx): { device_id: number } {
  const device = ctx.store.pushDevices.insert({
    device_id: ctx.store.nextId('push_devices'),
    user_id: ctx.actor.user_id,
    platform: null,
    registered_at: ctx.clock.now(),
  });
  ctx.events.publish([ctx.actor.user_id], { type: 'device', op: 'add', device_id: device.device_id });
  return { device_id: device.device_id };
}

/** POST /remove_client_device: forgets the device and its push registration. */
export function removeClientDevice(ctx: Ctx, { deviceId }: { deviceId: number }): void {
  const device = ownDevice(ctx, deviceId);
  ctx.store.pushDevices.remove(device);
  ctx.events.publish([ctx.actor.user_id], { type: 'device', op: 'remove', device_id: device.device_id });
}
