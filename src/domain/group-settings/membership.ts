// Group membership, direct and through nested subgroups, and who holds a group-setting value.
// Deactivated users are never counted as members (FL 303).
import type { Store } from '../../store/store.js';
import type { GroupSettingValue } from '../../store/state.js';

/**
 * Visits the group and every group nested in it, at any depth (cycle-safe), each once, until
 * `visit` returns true; whether it did. A group ID without a group is visited too (undefined).
 */
function someNestedGroup(
  store: Store,
  groupId: number,
  visit: (id: number, group: ReturnType<Store['userGroups']['get']>) => boolean,
): boolean {
  const seen = new Set<number>();
  const stack = [groupId];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const g = store.userGroups.get(id);
    if (visit(id, g)) return true;
    if (g) stack.push(...g.direct_subgroups);
  }
  return false;
}

/** The group and every group nested in it, at any depth (cycle-safe). */
export function subgroupClosure(store: Store, groupId: number): Set<number> {
  const ids = new Set<number>();
  someNestedGroup(store, groupId, (id) => {
    ids.add(id);
    return false;
  });
  return ids;
}

/** Active members of the group, through subgroups too unless `direct`. */
export function groupMemberIds(store: Store, groupId: number, direct = false): Set<number> {
  const out = new Set<number>();
  const groups = direct ? [groupId] : [...subgroupClosure(store, groupId)];
  for (const id of groups) {
    for (const userId of store.userGroups.get(id)?.direct_members ?? []) {
      if (store.users.get(userId)?.is_active) out.add(userId);
    }
  }
  return out;
}

export function isGroupMember(
  store: Store,
  groupId: number,
  userId: number,
  direct = false,
  includeDeactivated = false,
): boolean {
  if (!includeDeactivated && !store.users.get(userId)?.is_active) return false;
  if (direct) return store.userGroups.get(groupId)?.direct_members.includes(userId) ?? false;
  // Stops at the first group that lists the user (most checks find them in the first group or
  // two): no closure to build first.
  return someNestedGroup(store, groupId, (_id, g) => g?.direct_members.includes(userId) ?? false);
}

export function holdsSetting(store: Store, value: GroupSettingValue, userId: number): boolean {
  if (typeof value === 'number') return isGroupMember(store, value, userId);
  if (!store.users.get(userId)?.is_active) return false;
  if (value.direct_members.includes(userId)) return true;
  return value.direct_subgroups.some((g) => isGroupMember(store, g, userId));
}

/** The system group with this name (role:everyone, role:administrators, ...). */
export function systemGroupId(store: Store, name: string): number {
  const g = store.userGroups.find((x) => x.is_system_group && x.name === name);
  if (!g) throw new Error(`the fixture has no system group ${name}`);
  return g.id;
}
