// Views of the mobile push operations, by operationId: logged-in devices and their registration
// for end-to-end encrypted notifications, devices registered by token, and the two test notifications.
import type { OpenViewTable, ViewTable } from '../context.js';
import { registerClientDevice, removeClientDevice } from './devices.js';
import { sendTestPushNotification } from './e2ee-test.js';
import { registerPushDevice } from './registration.js';
import { registerRemotePushDevice } from './remote-register.js';
import { addPushToken, removePushToken, sendLegacyTestNotification } from './tokens.js';

export const views: ViewTable = {
  'register-client-device': (ctx) => registerClientDevice(ctx),
  'remove-client-device': (ctx, params) => removeClientDevice(ctx, { deviceId: params.device_id }),
  'register-push-device': (ctx, params) => registerPushDevice(ctx, params),
  // push_account_id named the registration before FL 468.
  'e2ee-test-notify': (ctx, params) =>
    sendTestPushNotification(ctx, { deviceId: params.device_id, pushAccountId: params.push_account_id }),
  'test-notify': (ctx, params) => sendLegacyTestNotification(ctx, { token: params.token }),
  'add-apns-token': (ctx, params) => addPushToken(ctx, { token: params.token, platform: 'ios', appId: params.appid }),
  'remove-apns-token': (ctx, params) => removePushToken(ctx, { token: params.token, platform: 'ios' }),
  'add-fcm-token': (ctx, params) => addPushToken(ctx, { token: params.token, platform: 'android' }),
  'remove-fcm-token': (ctx, params) => removePushToken(ctx, { token: params.token, platform: 'android' }),
};

/** The push bouncer's side, called by remote servers with their own credentials (checked by the view). */
export const openViews: OpenViewTable = {
  'register-remote-push-device': (ctx, params) => registerRemotePushDevice(ctx, params),
};
