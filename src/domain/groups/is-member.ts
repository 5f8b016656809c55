// GET /user_groups/{id}/members/{user_id}: whether a user belongs to a group, directly or
// through its subgroups. Bots can be asked about (FL 458); a deactivated user is never a
// member (FL 303); deactivated groups can be read.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import { requireNonGuest } from '../users/roles.js';
import { groupForRead } from './access.js';
import { isGroupMember } from './membership.js';

export function isUserGroupMember(ctx: Ctx, groupId: number, userId: number, directOnly: boolean): boolean {
  requireNonGuest(ctx.actor);
  const group = groupForRead(ctx.store, groupId);
  if (!ctx.store.users.get(userId)) throw badRequest('No such user');
  return isGroupMember(ctx.store, group.id, userId, directOnly);
}
