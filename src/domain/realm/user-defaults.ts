// PATCH /realm/user_settings_defaults: administrators change the settings new accounts start
// with. The values are checked as personal settings are (PATCH /settings); each change is kept
// on the realm and announced to everyone (realm_user_settings_defaults update).
import type { WorldCtx } from '../context.js';
import type { User, UserSettings } from '../../store/state.js';
import { activeUserIds } from '../users/access.js';
import { realmDefaultSettings } from '../users/default-settings.js';
import { requireAdmin } from '../users/roles.js';
import { checkSettingValues, requestedSettings } from '../users/settings.js';

/** Parameters of the shared settings body that are not defaults (the account's own, and who it is for). */
const NOT_DEFAULTS = new Set(['timezone']);

export function updateUserSettingsDefaults(world: WorldCtx, actor: User, params: Record<string, unknown>): void {
  requireAdmin(actor);
  const settings = requestedSettings(params).filter(([name]) => !NOT_DEFAULTS.has(name));
  checkSettingValues(settings);
  const current = realmDefaultSettings(world.store.realm) as unknown as Record<string, unknown>;
  const changed = settings.filter(([name, value]) => current[name] !== value);
  if (!changed.length) return;
  world.store.updateRealm({
    user_settings_defaults: {
      ...world.store.realm.user_settings_defaults,
      ...Object.fromEntries(changed),
    } as Partial<UserSettings>,
  });
  const audience = activeUserIds(world.store);
  for (const [property, value] of changed) {
    world.events.publish(audience, { type: 'realm_user_settings_defaults', op: 'update', property, value });
  }
}
