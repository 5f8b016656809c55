// Views of the realm (server and organization) operations, by operationId.
import type { ViewTable } from '../context.js';
import { sendTestPushNotification } from './push-test.js';
import { serverSettings } from './server-settings.js';

export const views: ViewTable = {
  // Stored order is the processing order clients must follow.
  'get-linkifiers': (ctx) => ({ linkifiers: ctx.store.linkifiers.all().map((l) => ({ ...l, alternative_url_templates: [...l.alternative_url_templates] })) }),
  // push_account_id named the device before FL 468.
  'e2ee-test-notify': (ctx, params) => sendTestPushNotification(ctx, params.device_id ?? params.push_account_id),
  'get-server-settings': (ctx) => serverSettings(ctx),
};
