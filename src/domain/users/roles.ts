// Role checks. Roles are ordered: a smaller number is a more powerful role.
import { mustBeAdmin } from '../../errors.js';
import { Role, type User } from '../../store/state.js';

export const isOwner = (u: User) => u.role === Role.owner;
export const isAdmin = (u: User) => u.role <= Role.administrator;
export const isModerator = (u: User) => u.role <= Role.moderator;
export const isGuest = (u: User) => u.role === Role.guest;

/** The administrator-only operations' gate (UNAUTHORIZED_PRINCIPAL). */
export function requireAdmin(actor: User): void {
  if (!isAdmin(actor)) throw mustBeAdmin();
}
