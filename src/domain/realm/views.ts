// Views of the realm (server and organization) operations, by operationId.
import type { OpenViewTable, ViewTable } from '../context.js';
import { linkifiers, realmFilters } from './linkifiers.js';
import { sendTestPushNotification } from './push-test.js';
import { serverSettings } from './server-settings.js';
import { customEmoji } from './custom-emoji.js';
import { updateRealmSettings } from './update-settings.js';

export const views: ViewTable = {
  'get-linkifiers': (ctx) => ({ linkifiers: linkifiers(ctx) }),
  'get-realm-filters': (ctx) => realmFilters(ctx),
  // push_account_id named the device before FL 468.
  'e2ee-test-notify': (ctx, params) => sendTestPushNotification(ctx, params.device_id ?? params.push_account_id),
  'get-custom-emoji': (ctx) => customEmoji(ctx),
  'update-realm': (ctx, params) => updateRealmSettings(ctx, ctx.actor, params),
};

/** Operations open to anyone: what a client learns before logging in. */
export const openViews: OpenViewTable = {
  'get-server-settings': (ctx) => serverSettings(ctx),
};
