// POST /user_groups/create: a new group with its first members, subgroups and permission
// settings. Everything is checked before anything is stored, in the real server's order
// (members, name, settings, subgroups), so the first error reported is the same.
import { badRequest, insufficientPermission } from '../../errors.js';
import type { Ctx, ParamsOf } from '../context.js';
import type { GroupSettingValue, UserGroup } from '../../store/state.js';
import { checkGroupSettingValueAllowing } from '../group-settings/values.js';
import { userGroupDict } from './register-state.js';
import { requireNonGuest } from '../users/roles.js';
import { holdsSetting } from '../group-settings/membership.js';
import { checkSubgroupIds } from './access.js';
import {
  checkUserGroupName,
  defaultUserGroupSetting,
  publishGroupEvent,
  USER_GROUP_SETTINGS,
  USER_GROUP_SETTING_NAMES,
  type UserGroupSetting,
} from './settings.js';

/** Active users of the organization, each once; "Invalid user ID" for any other. */
function activeMemberIds(ctx: Ctx, ids: number[]): number[] {
  for (const id of ids) if (!ctx.store.users.get(id)?.is_active) throw badRequest(`Invalid user ID: ${id}`);
  return [...new Set(ids)];
}

/** Active groups that may become subgroups, each once. */
function potentialSubgroupIds(ctx: Ctx, ids: number[]): number[] {
  checkSubgroupIds(ctx.store, ids);
  return [...new Set(ids)];
}

export function createUserGroup(ctx: Ctx, p: ParamsOf<'create-user-group'>): { group_id: number } {
  const { store, actor } = ctx;
  requireNonGuest(actor);
  if (!holdsSetting(store, store.realm.can_create_groups, actor.user_id)) throw insufficientPermission();
  const members = activeMemberIds(ctx, p.members);
  const name = checkUserGroupName(store, p.name);
  const settings = {} as Record<UserGroupSetting, GroupSettingValue>;
  for (const setting of USER_GROUP_SETTING_NAMES) {
    const requested = p[setting] as GroupSettingValue | undefined;
    settings[setting] =
      requested === undefined
        ? defaultUserGroupSetting(store, setting, actor)
        : checkGroupSettingValueAllowing(store, setting, USER_GROUP_SETTINGS[setting].allowEveryone, requested);
  }
  const subgroups = potentialSubgroupIds(ctx, p.subgroups ?? []);

  const group: UserGroup = store.userGroups.insert({
    id: store.nextId('user_groups'),
    name,
    description: p.description,
    is_system_group: false,
    direct_members: members,
    direct_subgroups: subgroups,
    deactivated: false,
    creator_id: actor.user_id,
    date_created: ctx.clock.now(),
    ...settings,
  });
  publishGroupEvent(ctx, { op: 'add', group: userGroupDict(store, group) });
  return { group_id: group.id };
}
