// GET /user_groups: every user group of the organization as the registration response lists
// them (groups/register-state.ts), by ID; deactivated groups only on request. Not for guests.
import type { Ctx } from '../context.js';
import { userGroupState } from './register-state.js';
import { requireNonGuest } from '../users/roles.js';

export function listUserGroups(ctx: Ctx, includeDeactivated: boolean): { user_groups: Array<Record<string, unknown>> } {
  requireNonGuest(ctx.actor);
  const groups = userGroupState(ctx.store, includeDeactivated).realm_user_groups as Array<Record<string, unknown>>;
  return { user_groups: [...groups].sort((a, b) => (a.id as number) - (b.id as number)) };
}
