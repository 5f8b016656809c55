// GET /users/{user_id}/status: one active person's status, with only the parts that are set
// (the same entries the registration response's user_status holds).
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import { userStatusState } from './settings-state.js';
import { organizationUser } from './list-users.js';

export function getUserStatus(ctx: Ctx, userId: number): { status: Record<string, unknown> } {
  const user = organizationUser(ctx.store.users.get(userId));
  // The real server's access_user_by_id without allow_bots / allow_deactivated.
  if (user.is_bot) throw badRequest('No such user');
  if (!user.is_active) throw badRequest('User is deactivated');
  const statuses = userStatusState(ctx.store).user_status as Record<string, Record<string, unknown>>;
  return { status: statuses[String(user.user_id)] ?? {} };
}
