// Looking a user group up for reading or for changing it, with the real server's errors. Who may
// change a group: holders of the organization's can_manage_all_groups, of the group's
// can_manage_group, or of the permission the change needs (can_add_members_group, ...).
// System groups (role:*) change only with roles, never through the groups endpoints.
import { badRequest, insufficientPermission } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { User, UserGroup } from '../../store/state.js';
import { holdsSetting } from '../group-settings/membership.js';

export type GroupPermission =
  'can_manage_group' | 'can_add_members_group' | 'can_remove_members_group' | 'can_join_group' | 'can_leave_group';

/** The real server's lookup of a group, where a deactivated one is not accepted. */
export const groupIsDeactivated = () => badRequest('User group is deactivated.');

/** Any group of the organization, deactivated ones included. */
export function groupForRead(store: Store, groupId: number): UserGroup {
  const group = store.userGroups.get(groupId);
  if (!group) throw badRequest('Invalid user group');
  return group;
}

function mayChangeGroup(store: Store, user: User, group: UserGroup, permission: GroupPermission): boolean {
  if (group.is_system_group) return false;
  return (
    holdsSetting(store, store.realm.can_manage_all_groups, user.user_id) ||
    holdsSetting(store, group.can_manage_group, user.user_id) ||
    holdsSetting(store, group[permission], user.user_id)
  );
}

/**
 * The group, if `user` may make a change that needs `permission` (or, failing that, the
 * `fallback` permission: joining is also allowed to those who may add anyone).
 * Deactivated groups can have their members changed (FL 391).
 */
export function groupForUpdate(
  store: Store,
  user: User,
  groupId: number,
  permission: GroupPermission,
  fallback?: GroupPermission,
): UserGroup {
  const group = groupForRead(store, groupId);
  if (group.is_system_group) throw insufficientPermission();
  if (mayChangeGroup(store, user, group, permission)) return group;
  if (fallback && mayChangeGroup(store, user, group, fallback)) return group;
  throw insufficientPermission();
}

/**
 * Groups named as subgroups (to add or to remove) as the real server checks them: the first ID
 * that names no group is invalid, then a deactivated one is refused.
 */
export function checkSubgroupIds(store: Store, ids: number[]): void {
  const missing = ids.find((id) => !store.userGroups.get(id));
  if (missing !== undefined) throw badRequest(`Invalid user group ID: ${missing}`);
  if (ids.some((id) => store.userGroups.get(id)!.deactivated)) throw groupIsDeactivated();
}
