// GET /user_groups/{id}/members/{user_id}: whether a user belongs to a group, directly or
// through its subgroups. Bots can be asked about (FL 458); a deactivated user is never a
// member (FL 303); deactivated groups can be read.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import { requireNonGuest } from '../users/roles.js';
import { groupForRead } from './access.js';
import { isGroupMember } from '../group-settings/membership.js';

export function isUserGroupMember(ctx: Ctx, groupId: number, userId: number, directOnly: boolean): boolean {
  requireNonGuest(ctx.actor);
  const group = groupForRead(ctx.store, groupId);
  const user = ctx.store.users.get(userId);
  if (!user) throw badRequest('No such user');
  // Bots could be asked about from FL 458 on.
  if (user.is_bot && !ctx.supports('bot_group_membership_query')) throw badRequest('No such user');
  // Before FL 303 deactivated users still counted as members.
  return isGroupMember(ctx.store, group.id, userId, directOnly, !ctx.supports('group_members_exclude_deactivated'));
}
