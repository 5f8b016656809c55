// Views of the mobile push operations, by operationId: devices registered by token, and the two
// test notifications.
import type { ViewTable } from '../context.js';
import { sendTestPushNotification } from './e2ee-test.js';
import { addPushToken, removePushToken, sendLegacyTestNotification } from './tokens.js';

export const views: ViewTable = {
  // push_account_id named the device before FL 468.
  'e2ee-test-notify': (ctx, params) => sendTestPushNotification(ctx, params.device_id ?? params.push_account_id),
  'test-notify': (ctx, params) => sendLegacyTestNotification(ctx, { token: params.token }),
  'add-apns-token': (ctx, params) => addPushToken(ctx, { token: params.token, platform: 'ios', appId: params.appid }),
  'remove-apns-token': (ctx, params) => removePushToken(ctx, { token: params.token, platform: 'ios' }),
  'add-fcm-token': (ctx, params) => addPushToken(ctx, { token: params.token, platform: 'android' }),
  'remove-fcm-token': (ctx, params) => removePushToken(ctx, { token: params.token, platform: 'android' }),
};
