// Values of group-based permission settings (of channels, groups and the organization): the
// normalisation the real server applies before comparing or storing a value (an anonymous group
// of exactly one subgroup is that subgroup; an empty one is role:nobody), the form the API shows,
// and which groups and users a value may name.
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { GroupSettingValue } from '../../store/state.js';
import { systemGroupId } from './membership.js';

const uniqueSorted = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** The value as the server stores it. */
export function normalizeGroupSetting(store: Store, value: GroupSettingValue): GroupSettingValue {
  if (typeof value === 'number') return value;
  const members = uniqueSorted(value.direct_members);
  const subgroups = uniqueSorted(value.direct_subgroups);
  if (members.length === 0 && subgroups.length === 1) return subgroups[0];
  if (members.length === 0 && subgroups.length === 0) return systemGroupId(store, 'role:nobody');
  return { direct_members: members, direct_subgroups: subgroups };
}

export function sameGroupSetting(store: Store, a: GroupSettingValue, b: GroupSettingValue): boolean {
  const x = normalizeGroupSetting(store, a);
  const y = normalizeGroupSetting(store, b);
  if (typeof x === 'number' || typeof y === 'number') return x === y;
  return JSON.stringify(x) === JSON.stringify(y);
}

/** The value as the API shows it: deactivated users are left out of direct_members (FL 303). */
export function groupSettingForApi(store: Store, value: GroupSettingValue): GroupSettingValue {
  if (typeof value === 'number') return value;
  return {
    direct_members: value.direct_members.filter((id) => store.users.get(id)?.is_active),
    direct_subgroups: [...value.direct_subgroups],
  };
}

// Deactivated groups can hold no permission (the real server treats them as unknown).
function checkGroupAllowed(
  store: Store,
  setting: string,
  allowEveryone: boolean,
  groupId: number,
  message: string,
): void {
  const group = store.userGroups.get(groupId);
  if (!group || group.deactivated) throw badRequest(message);
  if (!group.is_system_group) return;
  if (group.name === 'role:internet' || (group.name === 'role:everyone' && !allowEveryone)) {
    throw badRequest(`'${setting}' setting cannot be set to '${group.name}' group.`);
  }
}

/** The same check for any group setting (the organization's too), given whether role:everyone may hold it. */
export function checkGroupSettingValueAllowing(
  store: Store,
  setting: string,
  allowEveryone: boolean,
  value: GroupSettingValue,
): GroupSettingValue {
  const normalized = normalizeGroupSetting(store, value);
  if (typeof normalized === 'number') {
    checkGroupAllowed(store, setting, allowEveryone, normalized, 'Invalid user group');
    return normalized;
  }
  for (const id of normalized.direct_members) {
    if (!store.users.get(id)?.is_active) throw badRequest(`Invalid user ID: ${id}`);
  }
  for (const id of normalized.direct_subgroups)
    checkGroupAllowed(store, setting, allowEveryone, id, `Invalid user group ID: ${id}`);
  return normalized;
}
