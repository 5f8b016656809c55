// Role checks. Roles are ordered: a smaller number is a more powerful role.
import { badRequest, mustBeAdmin } from '../../errors.js';
import { Role, type User } from '../../store/state.js';

export const isOwner = (u: User) => u.role === Role.owner;
export const isAdmin = (u: User) => u.role <= Role.administrator;
export const isModerator = (u: User) => u.role <= Role.moderator;
export const isGuest = (u: User) => u.role === Role.guest;

/** The administrator-only operations' gate (UNAUTHORIZED_PRINCIPAL). */
export function requireAdmin(actor: User): void {
  if (!isAdmin(actor)) throw mustBeAdmin();
}

/** Endpoints the real server closes to bots (its human_users_only). */
export function requireHuman(actor: User): void {
  if (actor.is_bot) throw badRequest('This endpoint does not accept bot requests.');
}

/** Endpoints closed to guests (the real server's require_member_or_admin, bots allowed). */
export function requireNonGuest(actor: User): void {
  if (isGuest(actor)) throw badRequest('Not allowed for guest users');
}
