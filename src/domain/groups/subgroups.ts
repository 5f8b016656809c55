// GET /user_groups/{id}/subgroups: the groups nested in a group, directly or at any depth.
import type { WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { requireNonGuest } from '../users/roles.js';
import { groupForRead } from './access.js';
import { subgroupClosure } from '../group-settings/membership.js';

export function subgroupsOf(
  world: WorldCtx,
  actor: User,
  input: { user_group_id: number; direct_subgroup_only: boolean },
): { subgroups: number[] } {
  requireNonGuest(actor);
  const group = groupForRead(world.store, input.user_group_id);
  const ids = input.direct_subgroup_only
    ? [...group.direct_subgroups]
    : [...subgroupClosure(world.store, group.id)].filter((id) => id !== group.id);
  return { subgroups: ids.sort((a, b) => a - b) };
}
