// Two sections that read other modules' views: `streams` (the channels the user may see, as
// GET /streams lists them for the real server's register) and the organization's defaults for
// new users' settings.
import type { Ctx } from '../context.js';
import type { Store } from '../../store/store.js';
import { isAdmin } from '../users/roles.js';
import { listStreams } from '../channels/list-streams.js';
import { realmDefaultSettings } from '../users/default-settings.js';
import { NOTIFICATION_SOUNDS } from '../users/settings-values.js';
import { EMOJISET_CHOICES } from './state-server.js';

/** Public and web-public channels and the user's own; every active channel for administrators. */
export function streamsState(ctx: Ctx): Record<string, unknown> {
  const { streams } = listStreams(ctx, {
    include_public: true, include_web_public: true, include_subscribed: true, exclude_archived: true,
    include_all: false, include_all_active: isAdmin(ctx.actor), include_default: false,
    include_owner_subscribed: false, include_can_access_content: false,
  });
  return { streams };
}

/** The settings a new account of the organization starts with (no timezone: that is personal). */
export function realmUserDefaultsState(store: Store): Record<string, unknown> {
  const { timezone: _timezone, ...defaults } = realmDefaultSettings(store.realm);
  void _timezone;
  return {
    realm_user_settings_defaults: {
      ...defaults,
      emojiset_choices: structuredClone(EMOJISET_CHOICES),
      available_notification_sounds: [...NOTIFICATION_SOUNDS].filter((s) => s !== 'none').sort(),
    },
  };
}
