// POST /user_groups/{id}/members: add and remove direct members and direct subgroups. The four
// changes run in the real server's order (add, delete, add_subgroups, delete_subgroups), each
// checked against the result of the ones before; nothing is stored unless all of them pass,
// as the real server runs them in one transaction.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { UserGroup } from '../../store/state.js';
import { activeUserIds } from '../users/access.js';
import { requireHuman, requireNonGuest } from '../users/roles.js';
import { checkSubgroupIds, groupForUpdate, groupIsDeactivated } from './access.js';
import { subgroupClosure } from '../group-settings/membership.js';

export interface MembershipChange {
  add?: number[];
  delete?: number[];
  add_subgroups?: number[];
  delete_subgroups?: number[];
}

const unique = (ids: number[]) => [...new Set(ids)];

export function updateGroupMembers(ctx: Ctx, groupId: number, change: MembershipChange): void {
  const { store, actor } = ctx;
  requireNonGuest(actor);
  // Bots may change group members from FL 496 on.
  if (!ctx.supports('bots_update_group_members')) requireHuman(actor);
  const add = unique(change.add ?? []);
  const remove = unique(change.delete ?? []);
  const addSubgroups = unique(change.add_subgroups ?? []);
  const removeSubgroups = unique(change.delete_subgroups ?? []);
  if (!add.length && !remove.length && !addSubgroups.length && !removeSubgroups.length) {
    throw badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  }
  // Before FL 391 the group lookup refused a deactivated group, before any permission check.
  if (!ctx.supports('deactivated_group_members_editable') && store.userGroups.get(groupId)?.deactivated) {
    throw groupIsDeactivated();
  }

  const checkActiveUsers = (ids: number[]) => {
    for (const id of ids) if (!store.users.get(id)?.is_active) throw badRequest(`Invalid user ID: ${id}`);
  };
  const isSelf = (ids: number[]) => ids.length === 1 && ids[0] === actor.user_id;
  let group: UserGroup | undefined;
  let members: number[] = [];
  let subgroups: number[] = [];
  const events: Array<Record<string, unknown>> = [];
  const access = (found: UserGroup) => {
    if (!group) {
      group = found;
      members = [...found.direct_members];
      subgroups = [...found.direct_subgroups];
    }
  };

  if (add.length) {
    // Joining oneself needs can_join_group, or the right to add anyone.
    access(
      isSelf(add)
        ? groupForUpdate(store, actor, groupId, 'can_join_group', 'can_add_members_group')
        : groupForUpdate(store, actor, groupId, 'can_add_members_group'),
    );
    checkActiveUsers(add);
    for (const id of add) if (members.includes(id)) throw badRequest(`User ${id} is already a member of this group`);
    members.push(...add);
    events.push({ op: 'add_members', user_ids: add });
  }
  if (remove.length) {
    checkActiveUsers(remove);
    access(
      isSelf(remove)
        ? groupForUpdate(store, actor, groupId, 'can_leave_group', 'can_remove_members_group')
        : groupForUpdate(store, actor, groupId, 'can_remove_members_group'),
    );
    for (const id of remove)
      if (!members.includes(id)) throw badRequest(`There is no member '${id}' in this user group`);
    members = members.filter((id) => !remove.includes(id));
    events.push({ op: 'remove_members', user_ids: remove });
  }
  if (addSubgroups.length) {
    access(groupForUpdate(store, actor, groupId, 'can_add_members_group'));
    checkSubgroupIds(store, addSubgroups);
    for (const id of addSubgroups)
      if (subgroups.includes(id)) throw badRequest(`User group ${id} is already a subgroup of this group.`);
    // No cycles: the group may not already sit inside one of the new subgroups (or be one).
    if (addSubgroups.some((id) => subgroupClosure(store, id).has(groupId))) {
      throw badRequest(`User group ${groupId} is already a subgroup of one of the passed subgroups.`);
    }
    subgroups.push(...addSubgroups);
    events.push({ op: 'add_subgroups', direct_subgroup_ids: addSubgroups });
  }
  if (removeSubgroups.length) {
    access(groupForUpdate(store, actor, groupId, 'can_manage_group'));
    checkSubgroupIds(store, removeSubgroups);
    for (const id of removeSubgroups)
      if (!subgroups.includes(id)) throw badRequest(`User group ${id} is not a subgroup of this group.`);
    subgroups = subgroups.filter((id) => !removeSubgroups.includes(id));
    events.push({ op: 'remove_subgroups', direct_subgroup_ids: removeSubgroups });
  }

  store.userGroups.update(group!, { direct_members: members, direct_subgroups: subgroups });
  const audience = activeUserIds(store);
  for (const e of events) ctx.events.publish(audience, { type: 'user_group', ...e, group_id: groupId });
}
