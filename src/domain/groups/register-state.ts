// The `realm_user_groups` section of the registration state, and one group as GET /user_groups
// and `user_group` add events show it.
import type { Store } from '../../store/store.js';
import type { UserGroup } from '../../store/state.js';

/** One user group as GET /user_groups, the registration response and `user_group` add events show it. */
export function userGroupDict(store: Store, g: UserGroup): Record<string, unknown> {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    members: g.direct_members.filter((id) => store.users.get(id)?.is_active),
    direct_subgroup_ids: [...g.direct_subgroups],
    is_system_group: g.is_system_group,
    creator_id: g.creator_id,
    date_created: g.date_created,
    deactivated: g.deactivated,
    can_add_members_group: structuredClone(g.can_add_members_group),
    can_join_group: structuredClone(g.can_join_group),
    can_leave_group: structuredClone(g.can_leave_group),
    can_manage_group: structuredClone(g.can_manage_group),
    can_mention_group: structuredClone(g.can_mention_group),
    can_remove_members_group: structuredClone(g.can_remove_members_group),
  };
}

/** Deactivated groups only for clients with the include_deactivated_groups capability. */
export function userGroupState(store: Store, includeDeactivated: boolean): Record<string, unknown> {
  const groups = store.userGroups.filter((g) => includeDeactivated || !g.deactivated);
  return { realm_user_groups: groups.map((g) => userGroupDict(store, g)) };
}
