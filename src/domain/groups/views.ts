// Views of the groups operations, by operationId: they map parameters to the actions.
import type { ViewTable } from '../context.js';
import { isUserGroupMember } from './is-member.js';
import { userGroupMembers } from './members.js';
import { updateGroupMembers } from './update-members.js';
import { listUserGroups } from './list-groups.js';
import { subgroupsOf } from './subgroups.js';
import { createUserGroup } from './create.js';
import { updateUserGroup } from './update.js';
import { updateSubgroups } from './update-subgroups.js';
import { deactivateUserGroup } from './deactivate.js';

export const views: ViewTable = {
  'update-user-group-members': (ctx, params) => updateGroupMembers(ctx, params.user_group_id, params),
  'create-user-group': (ctx, params) => createUserGroup(ctx, params),
  'update-user-group': (ctx, params) => updateUserGroup(ctx, params),
  'update-user-group-subgroups': (ctx, params) => updateSubgroups(ctx, params.user_group_id, params),
  'deactivate-user-group': (ctx, params) => deactivateUserGroup(ctx, params.user_group_id),
  'get-user-groups': (ctx, params) => listUserGroups(ctx, params.include_deactivated_groups),
  'get-user-group-subgroups': (ctx, params) => subgroupsOf(ctx, ctx.actor, params),
  'get-user-group-members': (ctx, params) => userGroupMembers(ctx, params),
  'get-is-user-group-member': (ctx, params) => ({
    is_user_group_member: isUserGroupMember(ctx, params.user_group_id, params.user_id, params.direct_member_only),
  }),
};
