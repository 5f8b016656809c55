// A user group's permission settings: which system groups each may hold, their defaults for a new
// group (the real server's GROUP_PERMISSION_SETTINGS), the name rules, and the one way group
// changes reach clients (every active user gets `user_group` events, guests included).
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { GroupSettingValue, User, UserGroup } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { activeUserIds } from '../users/access.js';
import { systemGroupId } from '../group-settings/membership.js';

export type UserGroupSetting =
  | 'can_add_members_group'
  | 'can_join_group'
  | 'can_leave_group'
  | 'can_manage_group'
  | 'can_mention_group'
  | 'can_remove_members_group';

interface GroupSettingRule {
  allowEveryone: boolean;
  /** 'creator': an anonymous group holding only the group's creator. */
  defaultValue: 'creator' | 'role:nobody' | 'role:everyone';
}

export const USER_GROUP_SETTINGS: Record<UserGroupSetting, GroupSettingRule> = {
  can_add_members_group: { allowEveryone: false, defaultValue: 'creator' },
  can_join_group: { allowEveryone: false, defaultValue: 'role:nobody' },
  can_leave_group: { allowEveryone: true, defaultValue: 'role:everyone' },
  can_manage_group: { allowEveryone: false, defaultValue: 'creator' },
  can_mention_group: { allowEveryone: true, defaultValue: 'role:everyone' },
  can_remove_members_group: { allowEveryone: false, defaultValue: 'role:nobody' },
};

export const USER_GROUP_SETTING_NAMES = Object.keys(USER_GROUP_SETTINGS) as UserGroupSetting[];

export function defaultUserGroupSetting(store: Store, setting: UserGroupSetting, creator: User): GroupSettingValue {
  const d = USER_GROUP_SETTINGS[setting].defaultValue;
  return d === 'creator' ? { direct_members: [creator.user_id], direct_subgroups: [] } : systemGroupId(store, d);
}

const MAX_NAME_LENGTH = 100;
const RESERVED_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** A valid, unused name for a group (`except`: the group being renamed). */
export function checkUserGroupName(store: Store, name: string, except?: UserGroup): string {
  if (name.trim() === '') throw badRequest("User group name can't be empty!");
  if (name.length > MAX_NAME_LENGTH) throw badRequest(`User group name cannot exceed ${MAX_NAME_LENGTH} characters.`);
  const prefix = RESERVED_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) throw badRequest(`User group name cannot start with '${prefix}'.`);
  if (store.userGroups.find((g) => g.name === name && g !== except))
    throw badRequest(`User group '${name}' already exists.`);
  return name;
}

/** Sends a `user_group` event to every active user. */
export function publishGroupEvent(
  world: WorldCtx,
  event: Record<string, unknown>,
  perQueue?: Parameters<WorldCtx['events']['publish']>[2],
): void {
  world.events.publish(activeUserIds(world.store), { type: 'user_group', ...event }, perQueue);
}
