// PATCH /user_groups/{id}: name, description, permission settings ({new, old?} as for channels:
// a stale `old` is refused, an unchanged value skipped) and reactivation. Every change is
// checked before any is applied; each applied change is its own `user_group` update event.
import { badRequest } from '../../errors.js';
import type { Ctx, ParamsOf } from '../context.js';
import type { GroupSettingValue, UserGroup } from '../../store/state.js';
import {
  checkGroupSettingValueAllowing,
  groupSettingForApi,
  normalizeGroupSetting,
  sameGroupSetting,
} from '../group-settings/values.js';
import { userGroupDict } from './register-state.js';
import { requireNonGuest } from '../users/roles.js';
import { groupForUpdate } from './access.js';
import { checkUserGroupName, publishGroupEvent, USER_GROUP_SETTINGS, USER_GROUP_SETTING_NAMES } from './settings.js';

type Change = Partial<UserGroup>;

function plannedSettings(ctx: Ctx, group: UserGroup, p: Record<string, unknown>): Change {
  const { store } = ctx;
  const out: Change = {};
  for (const setting of USER_GROUP_SETTING_NAMES) {
    const request = p[setting] as { new: GroupSettingValue; old?: GroupSettingValue } | undefined;
    if (!request) continue;
    if (request.old !== undefined && !sameGroupSetting(store, request.old, group[setting])) {
      throw badRequest("'old' value does not match the expected value.");
    }
    if (sameGroupSetting(store, normalizeGroupSetting(store, request.new), group[setting])) continue;
    out[setting] = checkGroupSettingValueAllowing(
      store,
      setting,
      USER_GROUP_SETTINGS[setting].allowEveryone,
      request.new,
    );
  }
  return out;
}

export function updateUserGroup(ctx: Ctx, p: ParamsOf<'update-user-group'>): void {
  const { store, actor } = ctx;
  requireNonGuest(actor);
  const asked = ['name', 'description', 'deactivated', ...USER_GROUP_SETTING_NAMES].some(
    (k) => (p as Record<string, unknown>)[k] !== undefined,
  );
  if (!asked) throw badRequest('No new data supplied');
  const group = groupForUpdate(store, actor, p.user_group_id, 'can_manage_group');
  // Deactivation has its own operation.
  if (p.deactivated === true) throw badRequest('Invalid parameters');
  // Before FL 340 a deactivated group could only be renamed.
  const onlyName = p.description !== undefined || USER_GROUP_SETTING_NAMES.some((k) => p[k] !== undefined);
  if (group.deactivated && onlyName && !ctx.supports('deactivated_group_settings_editable')) {
    throw badRequest('You can only change name of deactivated user groups');
  }

  const change: Change = {};
  if (p.name !== undefined && p.name !== group.name) change.name = checkUserGroupName(store, p.name, group);
  if (p.description !== undefined && p.description !== group.description) change.description = p.description;
  Object.assign(change, plannedSettings(ctx, group, p));
  const reactivate = p.deactivated === false && group.deactivated;

  for (const [key, value] of Object.entries(change)) {
    store.userGroups.update(group, { [key]: value });
    const shown = key.startsWith('can_') ? groupSettingForApi(store, value as GroupSettingValue) : value;
    publishGroupEvent(ctx, { op: 'update', group_id: group.id, data: { [key]: shown } });
  }
  if (reactivate) {
    store.userGroups.update(group, { deactivated: false });
    // Clients that do not list deactivated groups learn of the group again as a new one.
    const dict = userGroupDict(store, group);
    publishGroupEvent(ctx, { op: 'update', group_id: group.id, data: { deactivated: false } }, (_q, _u, queue) =>
      queue?.capabilities.include_deactivated_groups
        ? { type: 'user_group', op: 'update', group_id: group.id, data: { deactivated: false } }
        : { type: 'user_group', op: 'add', group: dict },
    );
  }
}
