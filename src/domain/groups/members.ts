// GET /user_groups/{id}/members: the IDs of a group's members, through its subgroups unless
// only direct members are asked for. Read with the same checks as the membership query
// (GET /user_groups/{id}/members/{user_id}): not for guests, any group of the organization.
import type { Ctx } from '../context.js';
import { requireNonGuest } from '../users/roles.js';
import { groupForRead } from './access.js';
import { subgroupClosure } from '../group-settings/membership.js';

export function userGroupMembers(
  ctx: Ctx,
  input: { user_group_id: number; direct_member_only: boolean },
): { members: number[] } {
  const { store } = ctx;
  requireNonGuest(ctx.actor);
  const group = groupForRead(store, input.user_group_id);
  // Before FL 303 deactivated users still counted as members.
  const countsDeactivated = !ctx.supports('group_members_exclude_deactivated');
  const groups = input.direct_member_only ? [group.id] : [...subgroupClosure(store, group.id)];
  const members = new Set<number>();
  for (const id of groups) {
    for (const userId of store.userGroups.get(id)?.direct_members ?? []) {
      if (countsDeactivated || store.users.get(userId)?.is_active) members.add(userId);
    }
  }
  return { members: [...members].sort((a, b) => a - b) };
}
