// Views of the realm (server and organization) operations, by operationId.
import type { OpenViewTable, ViewTable } from '../context.js';
import { linkifiers, realmFilters } from './linkifiers.js';
import { serverSettings } from './server-settings.js';
import { customEmoji, deactivateCustomEmoji, uploadCustomEmoji, serveCustomEmoji } from './custom-emoji.js';
import { updateRealmSettings } from './update-settings.js';
import { addPlayground, removePlayground } from './playgrounds.js';
import {
  createProfileField,
  listProfileFields,
  removeProfileField,
  reorderProfileFields,
  updateProfileField,
} from './profile-fields.js';
import { addLinkifier, removeLinkifier, reorderLinkifiers, updateLinkifier } from './change-linkifiers.js';
import { addDomain, changeDomain, domainsForApi, removeDomain } from './domains.js';
import { updateUserSettingsDefaults } from './user-defaults.js';
import { deactivateRealm, testWelcomeBotMessage } from './organization.js';

export const views: ViewTable = {
  'get-linkifiers': (ctx) => ({ linkifiers: linkifiers(ctx) }),
  'get-realm-filters': (ctx) => realmFilters(ctx),
  'get-custom-emoji': (ctx) => customEmoji(ctx),
  'upload-custom-emoji': (ctx, p) => uploadCustomEmoji(ctx, ctx.actor, { name: p.emoji_name, files: ctx.files }),
  'deactivate-custom-emoji': (ctx, p) => deactivateCustomEmoji(ctx, ctx.actor, { name: p.emoji_name }),
  'update-realm': (ctx, params) => updateRealmSettings(ctx, ctx.actor, params),
  'add-linkifier': (ctx, params) => addLinkifier(ctx, ctx.actor, params),
  'update-linkifier': (ctx, params) => updateLinkifier(ctx, ctx.actor, params),
  'remove-linkifier': (ctx, params) => removeLinkifier(ctx, ctx.actor, params),
  'reorder-linkifiers': (ctx, params) => reorderLinkifiers(ctx, ctx.actor, params),
  'get-custom-profile-fields': (ctx) => listProfileFields(ctx),
  'create-custom-profile-field': (ctx, params) => createProfileField(ctx, ctx.actor, params),
  'update-custom-profile-field': (ctx, params) => updateProfileField(ctx, ctx.actor, params),
  'remove-custom-profile-field': (ctx, params) => removeProfileField(ctx, ctx.actor, params),
  'reorder-custom-profile-fields': (ctx, params) => reorderProfileFields(ctx, ctx.actor, params),
  'add-code-playground': (ctx, params) => addPlayground(ctx, ctx.actor, params),
  'remove-code-playground': (ctx, params) => removePlayground(ctx, ctx.actor, params),
  'get-realm-domains': (ctx) => ({ domains: domainsForApi(ctx.store) }),
  'add-realm-domain': (ctx, params) => addDomain(ctx, ctx.actor, params),
  'patch-realm-domain': (ctx, params) => changeDomain(ctx, ctx.actor, params),
  'delete-realm-domain': (ctx, params) => removeDomain(ctx, ctx.actor, params),
  'update-realm-user-settings-defaults': (ctx, params) => updateUserSettingsDefaults(ctx, ctx.actor, params),
  'test-welcome-bot-custom-message': (ctx, params) =>
    testWelcomeBotMessage(ctx, ctx.actor, params.welcome_message_custom_text),
  'deactivate-realm': (ctx, params) => deactivateRealm(ctx, ctx.actor, params.deletion_delay_days),
};

/** Operations open to anyone: what a client learns before logging in. */
export const openViews: OpenViewTable = {
  'get-server-settings': (ctx) => serverSettings(ctx),
  'get-custom-emoji-image': (ctx, params) =>
    serveCustomEmoji(ctx.store, { realmId: params.realm_id_str, fileName: params.emoji_file_name }),
};
