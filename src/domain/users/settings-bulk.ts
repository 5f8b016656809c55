// PATCH /settings with target_users: an administrator applies settings to other users (FL 444).
// The targets are the listed users plus the active members of the listed groups; bots are
// skipped (settings do not apply to them) and deactivated users listed by ID are included, so
// that the right values are in place if they come back.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { User } from '../../store/state.js';
import { groupMemberIds } from '../group-settings/membership.js';
import { requireAdmin } from './roles.js';
import { changeUserSetting } from './setting-change.js';
import { checkSettingValues, type OwnAccountChange } from './settings.js';
import { NOT_FOR_OTHER_USERS } from './settings-values.js';

export interface TargetUsers {
  user_ids?: number[];
  group_ids?: number[];
  skip_if_already_edited?: boolean;
}

function targetUsers(ctx: Ctx, target: TargetUsers): User[] {
  const { store } = ctx;
  const ids = new Set<number>();
  for (const groupId of target.group_ids ?? []) {
    if (!store.userGroups.get(groupId)) throw badRequest(`Invalid user group ID: ${groupId}`);
    for (const id of groupMemberIds(store, groupId)) ids.add(id);
  }
  for (const userId of target.user_ids ?? []) {
    if (!store.users.get(userId)) throw badRequest(`Invalid user ID: ${userId}`);
    ids.add(userId);
  }
  return [...ids].map((id) => store.users.get(id)!).filter((u) => !u.is_bot);
}

export function updateOthersSettings(
  ctx: Ctx,
  account: OwnAccountChange,
  settings: Array<[string, unknown]>,
  target: TargetUsers,
): void {
  if (!target.user_ids?.length && !target.group_ids?.length)
    throw badRequest('Either user_ids or group_ids must be provided.');
  requireAdmin(ctx.actor);
  // The address, the password and the time zone belong to the user alone, as do the
  // security-sensitive settings.
  const forbidden =
    account.email !== undefined ||
    account.new_password !== undefined ||
    settings.some(([name]) => name === 'timezone' || NOT_FOR_OTHER_USERS.has(name));
  if (forbidden) throw badRequest('Cannot change this setting for other users.');
  checkSettingValues(settings);

  const users = targetUsers(ctx, target);
  for (const [name, value] of settings) {
    for (const user of users) {
      if (target.skip_if_already_edited && user.settings_edited.includes(name)) continue;
      changeUserSetting(ctx, user, name, value, false);
    }
  }
}
