// Views of the realm (server and organization) operations, by operationId.
import type { OpenViewTable, ViewTable } from '../context.js';
import { linkifiers, realmFilters } from './linkifiers.js';
import { serverSettings } from './server-settings.js';
import { customEmoji } from './custom-emoji.js';

export const views: ViewTable = {
  'get-linkifiers': (ctx) => ({ linkifiers: linkifiers(ctx) }),
  'get-realm-filters': (ctx) => realmFilters(ctx),
  'get-custom-emoji': (ctx) => customEmoji(ctx),
};

/** Operations open to anyone: what a client learns before logging in. */
export const openViews: OpenViewTable = {
  'get-server-settings': (ctx) => serverSettings(ctx),
};
