// Views of the groups operations, by operationId: they map parameters to the actions.
import { badRequest } from '../../errors.js';
import type { ViewTable } from '../context.js';
import { requireNonGuest } from '../users/roles.js';
import { groupForRead } from './access.js';
import { isGroupMember } from './membership.js';
import { updateGroupMembers } from './update-members.js';

export const views: ViewTable = {
  'update-user-group-members': (ctx, params) => updateGroupMembers(ctx, params.user_group_id, params),

  'get-is-user-group-member': (ctx, params) => {
    requireNonGuest(ctx.actor);
    const group = groupForRead(ctx.store, params.user_group_id);
    // Bots can be asked about (FL 458); a deactivated user is never a member (FL 303).
    if (!ctx.store.users.get(params.user_id)) throw badRequest('No such user');
    return { is_user_group_member: isGroupMember(ctx.store, group.id, params.user_id, params.direct_member_only) };
  },
};
