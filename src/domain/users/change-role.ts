// Changing a user's role: the user moves from the system group of the old role to that of the new
// one, and in or out of role:fullmembers when the change involves the member role (only members
// past the organization's waiting period are full members). Everyone learns the new role and each
// membership change, in the real server's order.
import type { WorldCtx } from '../context.js';
import { Role, type User, type UserGroup } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { systemGroupId } from '../group-settings/membership.js';
import { activeUserIds } from './access.js';

/** The system group that holds each role's users directly. */
export const ROLE_GROUP: Record<User['role'], string> = {
  [Role.owner]: 'role:owners',
  [Role.administrator]: 'role:administrators',
  [Role.moderator]: 'role:moderators',
  [Role.member]: 'role:members',
  [Role.guest]: 'role:everyone',
};

const DAY = 86_400;

/** A member whose account is older than the waiting period (in days). */
function qualifiesAsFullMember(store: Store, user: User, now: number): boolean {
  if (user.role !== Role.member) return false;
  const joined = Date.parse(user.date_joined) / 1000;
  return joined + store.realm.waiting_period_threshold * DAY <= now;
}

function setDirectMembership(world: WorldCtx, group: UserGroup, userId: number, member: boolean): void {
  const members = group.direct_members.filter((id) => id !== userId);
  if (member) members.push(userId);
  world.store.userGroups.update(group, { direct_members: members });
  world.events.publish(activeUserIds(world.store), {
    type: 'user_group',
    op: member ? 'add_members' : 'remove_members',
    group_id: group.id,
    user_ids: [userId],
  });
}

export function changeUserRole(world: WorldCtx, user: User, role: User['role']): void {
  const { store } = world;
  const oldRole = user.role;
  const oldGroup = store.userGroups.get(systemGroupId(store, ROLE_GROUP[oldRole]))!;
  const newGroup = store.userGroups.get(systemGroupId(store, ROLE_GROUP[role]))!;
  const updated = store.users.update(user, { role });
  world.events.publish(activeUserIds(store), {
    type: 'realm_user',
    op: 'update',
    person: { user_id: user.user_id, role },
  });
  setDirectMembership(world, oldGroup, user.user_id, false);
  setDirectMembership(world, newGroup, user.user_id, true);

  if (oldRole !== Role.member && role !== Role.member) return;
  const fullMembers = store.userGroups.get(systemGroupId(store, 'role:fullmembers'))!;
  const isFull = fullMembers.direct_members.includes(user.user_id);
  const shouldBe = qualifiesAsFullMember(store, updated, world.clock.now());
  if (isFull !== shouldBe) setDirectMembership(world, fullMembers, user.user_id, shouldBe);
}
