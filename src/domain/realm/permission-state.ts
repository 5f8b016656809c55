// Parts of the `realm` register section that describe the permission settings rather than hold
// them: the deprecated integer policies the real server still sends beside the group settings
// that replaced them, and server_supported_permission_settings (which values each group setting
// accepts and its default).
import type { Ctx } from '../context.js';
import type { Store } from '../../store/store.js';
import type { GroupSettingValue } from '../../store/state.js';
import { REALM_GROUP_SETTINGS } from './settings-rules.js';
import { settingValue } from './setting-values.js';
import { CHANNEL_GROUP_SETTINGS } from '../channels/group-settings.js';
import { USER_GROUP_SETTINGS } from '../groups/settings.js';

/**
 * Each deprecated policy, the group setting it approximates, and its value per system group. A
 * setting held by a group with no value here (a user-defined or anonymous group) is written as
 * the widest policy, as the real server does: a superset of who holds the permission.
 */
const LEGACY_POLICIES: Record<string, { setting: string; values: Record<string, number>; widest: number }> = {
  realm_create_public_stream_policy: {
    setting: 'can_create_public_channel_group',
    values: {
      'role:members': 1,
      'role:administrators': 2,
      'role:owners': 2,
      'role:nobody': 2,
      'role:fullmembers': 3,
      'role:moderators': 4,
    },
    widest: 1,
  },
  realm_create_private_stream_policy: {
    setting: 'can_create_private_channel_group',
    values: {
      'role:members': 1,
      'role:administrators': 2,
      'role:owners': 2,
      'role:nobody': 2,
      'role:fullmembers': 3,
      'role:moderators': 4,
    },
    widest: 1,
  },
  realm_create_web_public_stream_policy: {
    setting: 'can_create_web_public_channel_group',
    values: { 'role:administrators': 2, 'role:moderators': 4, 'role:nobody': 6, 'role:owners': 7 },
    widest: 4,
  },
  realm_wildcard_mention_policy: {
    setting: 'can_mention_many_users_group',
    values: {
      'role:everyone': 1,
      'role:members': 2,
      'role:fullmembers': 3,
      'role:administrators': 5,
      'role:owners': 5,
      'role:nobody': 6,
      'role:moderators': 7,
    },
    widest: 1,
  },
};

const systemGroupName = (store: Store, value: GroupSettingValue | undefined): string | null => {
  if (typeof value !== 'number') return null;
  const group = store.userGroups.get(value);
  return group?.is_system_group ? group.name : null;
};

/** The deprecated policies, from the group settings that replaced them. */
function legacyPolicies(store: Store): Record<string, number> {
  const realm = store.realm as unknown as Record<string, GroupSettingValue | undefined>;
  const out: Record<string, number> = {};
  for (const [field, { setting, values, widest }] of Object.entries(LEGACY_POLICIES)) {
    const name = systemGroupName(store, realm[setting]);
    out[field] = (name ? values[name] : undefined) ?? widest;
  }
  return out;
}

interface PermissionSetting {
  require_system_group: boolean;
  allow_internet_group: boolean;
  allow_nobody_group: boolean;
  allow_everyone_group: boolean;
  default_group_name: string;
  default_for_system_groups: string | null;
  allowed_system_groups: string[];
}

const setting = (
  allowEveryone: boolean,
  defaultName: string,
  forSystemGroups: string | null = null,
): PermissionSetting => ({
  require_system_group: false,
  allow_internet_group: false,
  allow_nobody_group: true,
  allow_everyone_group: allowEveryone,
  default_group_name: defaultName,
  default_for_system_groups: forSystemGroups,
  allowed_system_groups: [],
});

/**
 * server_supported_permission_settings, from the mock's own tables of the three kinds of group
 * setting. A realm setting's default is the system group the organization holds it with (the
 * fixture is a new organization's defaults), else role:nobody.
 */
function permissionSettings(ctx: Ctx): Record<string, Record<string, PermissionSetting>> {
  const { store } = ctx;
  const creator = ctx.supports('permission_settings_channel_creator') ? 'channel_creator' : 'stream_creator_or_nobody';
  // Only the settings that exist at the request's level.
  const exists = (schema: string, field: string) => {
    try {
      return ctx.hasField(schema, field);
    } catch {
      return true;
    }
  };
  const realmSettings = Object.fromEntries(
    Object.entries(REALM_GROUP_SETTINGS)
      .filter(([name]) => exists('RegisterRealm', `realm_${name}`))
      .map(([name, rule]) => [
        name,
        setting(
          rule.allowEveryone,
          systemGroupName(store, settingValue(store, name) as GroupSettingValue | undefined) ?? 'role:nobody',
        ),
      ]),
  );
  const stream = Object.fromEntries(
    Object.entries(CHANNEL_GROUP_SETTINGS)
      .filter(([name]) => exists('ClientChannel', name))
      .map(([name, rule]) => [
        name,
        setting(rule.allowEveryone, rule.defaultValue === 'creator' ? creator : rule.defaultValue),
      ]),
  );
  const group = Object.fromEntries(
    Object.entries(USER_GROUP_SETTINGS).map(([name, rule]) => [
      name,
      setting(rule.allowEveryone, rule.defaultValue === 'creator' ? 'group_creator' : rule.defaultValue, 'role:nobody'),
    ]),
  );
  return { realm: realmSettings, stream, group };
}

/** The register `realm` section's permission descriptions (beside realmState's settings). */
export function realmPermissionState(ctx: Ctx): Record<string, unknown> {
  return { ...legacyPolicies(ctx.store), server_supported_permission_settings: permissionSettings(ctx) };
}
