// invites_changed: tells clients showing pending invitations to fetch them again. It goes to the
// organization's administrators and (from FL 209) to the invitation's creator.
import type { WorldCtx } from '../context.js';
import { isAdmin } from '../users/roles.js';

export function notifyInvitesChanged(world: WorldCtx, referrerId: number | null, toReferrer: boolean): void {
  const ids = world.store.users.filter((u) => u.is_active && !u.is_bot && isAdmin(u)).map((u) => u.user_id);
  if (toReferrer && referrerId !== null && !ids.includes(referrerId)) ids.push(referrerId);
  world.events.publish(ids, { type: 'invites_changed' });
}
