// POST /user_groups/{id}/subgroups: the older, subgroups-only form of the membership change.
// Same rules and events as add_subgroups / delete_subgroups of POST /user_groups/{id}/members,
// with its own "nothing to do" wording.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import { updateGroupMembers } from './update-members.js';

export function updateSubgroups(ctx: Ctx, groupId: number, p: { add?: number[]; delete?: number[] }): void {
  if (!p.add?.length && !p.delete?.length)
    throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  updateGroupMembers(ctx, groupId, { add_subgroups: p.add, delete_subgroups: p.delete });
}
