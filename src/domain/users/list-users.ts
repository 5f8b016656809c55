// GET /users, GET /users/{user_id}, GET /users/{email}: the organization's users in the shape the
// registration response uses (users/register-state.ts), with profile_data only on request. The
// server's own bots (notification bot, ...) belong to no organization, so these endpoints do not
// know them.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { User } from '../../store/state.js';
import { userForClient } from './register-state.js';
import { userByEmail } from './access.js';
import { userByAddressFor, userByOrganizationDisplayEmail } from './email-visibility.js';

export interface UserViewOptions {
  clientGravatar: boolean;
  includeCustomProfileFields: boolean;
}

function userForApi(ctx: Ctx, user: User, opts: UserViewOptions): Record<string, unknown> {
  const dict = userForClient(ctx.actor, user, {
    clientGravatar: opts.clientGravatar,
    // Before feature level 163 the organization's email_address_visibility decides for everyone.
    organization: ctx.supports('email_visibility_per_user') ? undefined : ctx.store.realm,
  });
  if (!opts.includeCustomProfileFields) delete dict.profile_data;
  return dict;
}

/** A user of the organization (active or not, person or bot), or "No such user". */
export function organizationUser(user: User | undefined): User {
  if (!user || user.is_system_bot) throw badRequest('No such user');
  return user;
}

export function listUsers(ctx: Ctx, opts: UserViewOptions): { members: Record<string, unknown>[] } {
  const users = ctx.store.users.filter((u) => !u.is_system_bot).sort((a, b) => a.user_id - b.user_id);
  return { members: users.map((u) => userForApi(ctx, u, opts)) };
}

export function getUser(ctx: Ctx, userId: number, opts: UserViewOptions): { user: Record<string, unknown> } {
  const user = organizationUser(ctx.store.users.get(userId));
  return { user: userForApi(ctx, user, opts) };
}

/**
 * By the address, compared without regard to case: from feature level 302 a real address the
 * caller may see or a stand-in address (email-visibility.ts); before, the API email only (before
 * 163, the API email the organization's setting gives).
 */
export function getUserByEmail(ctx: Ctx, email: string, opts: UserViewOptions): { user: Record<string, unknown> } {
  const found = ctx.supports('user_by_real_email')
    ? userByAddressFor(ctx.store, ctx.actor, email)
    : ctx.supports('email_visibility_per_user')
      ? userByEmail(ctx.store, email.trim())
      : userByOrganizationDisplayEmail(ctx.store, email.trim());
  return { user: userForApi(ctx, organizationUser(found), opts) };
}
