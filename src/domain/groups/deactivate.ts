// POST /user_groups/{id}/deactivate. A group still holding a permission (of the organization, of
// an active channel, of an active group) cannot be deactivated: the error lists where, as the
// real server's `objections` do. Clients without include_deactivated_groups see a removal.
import { ApiError } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { GroupSettingValue } from '../../store/state.js';
import { groupForRead, groupForUpdate, groupIsDeactivated } from './access.js';
import { publishGroupEvent } from './settings.js';

type Objection = { type: 'realm' } | { type: 'channel'; channel_id: number } | { type: 'user_group'; group_id: number };

function isGroupSetting(value: unknown): value is GroupSettingValue {
  return (
    typeof value === 'number' ||
    (typeof value === 'object' &&
      value !== null &&
      Array.isArray((value as { direct_subgroups?: unknown }).direct_subgroups))
  );
}

/** The names of the group-valued settings of `row` that name `groupId`. */
function settingsUsing(row: object, groupId: number): string[] {
  return Object.entries(row)
    .filter(
      ([key, value]) =>
        /_groups?$/.test(key) &&
        isGroupSetting(value) &&
        (value === groupId || (typeof value === 'object' && value.direct_subgroups.includes(groupId))),
    )
    .map(([key]) => key)
    .sort();
}

function objectionsTo(ctx: Ctx, groupId: number): Array<Objection & { settings: string[] }> {
  const { store } = ctx;
  const out: Array<Objection & { settings: string[] }> = [];
  const realm = settingsUsing({ ...store.realm.shown_settings, ...store.realm }, groupId);
  if (realm.length) out.push({ type: 'realm', settings: realm });
  for (const s of store.streams.all()) {
    const settings = s.is_archived ? [] : settingsUsing(s, groupId);
    if (settings.length) out.push({ type: 'channel', channel_id: s.stream_id, settings });
  }
  for (const g of store.userGroups.all()) {
    const settings = g.deactivated || g.id === groupId ? [] : settingsUsing(g, groupId);
    if (settings.length) out.push({ type: 'user_group', group_id: g.id, settings });
  }
  return out;
}

export function deactivateUserGroup(ctx: Ctx, groupId: number): void {
  const { store, actor } = ctx;
  // The real server's lookup refuses a deactivated group before it checks any permission; the
  // operation has no guest gate of its own (a guest holds no group's can_manage_group).
  if (groupForRead(store, groupId).deactivated) throw groupIsDeactivated();
  const group = groupForUpdate(store, actor, groupId, 'can_manage_group');
  const objections = objectionsTo(ctx, group.id);
  if (objections.length) {
    throw new ApiError('CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.', 400, { objections });
  }
  store.userGroups.update(group, { deactivated: true });
  const update = { type: 'user_group', op: 'update', group_id: group.id, data: { deactivated: true } };
  publishGroupEvent(ctx, update, (_q, _u, queue) =>
    queue?.capabilities.include_deactivated_groups ? update : { type: 'user_group', op: 'remove', group_id: group.id },
  );
}
