// PATCH /users/{user_id}: an administrator (or a bot's owner) edits an account: role, name,
// profile data and (FL 313) email address. The parts are checked in the real server's order
// (permission for a new address, role, name, profile data, the address) and, as there in one
// transaction, a refused request changes nothing.
import { ApiError, badRequest, mustBeAdmin } from '../../errors.js';
import type { ParamsOf, WorldCtx } from '../context.js';
import { Role, type User } from '../../store/state.js';
import { userByAddressFor } from './email-visibility.js';
import { targetUser } from './administer.js';
import { changeUserRole } from './change-role.js';
import { changeDeliveryEmail, checkMayChangeEmails, checkNewEmailOf } from './change-email.js';
import { planProfileDataChange } from './profile-data.js';
import { isAdmin, isOwner } from './roles.js';
import { renameUser } from './settings.js';
import { checkFullName } from './settings-values.js';

type UpdateUserParams = ParamsOf<'update-user'>;

const mustBeOwner = () => new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');

function isOnlyOwner(world: WorldCtx, user: User): boolean {
  if (!isOwner(user) || user.is_bot) return false;
  return world.store.users.filter((u) => u.is_active && !u.is_bot && isOwner(u)).length === 1;
}

function checkRoleChange(world: WorldCtx, actor: User, target: User, role: User['role']): void {
  if ((role === Role.owner || target.role === Role.owner) && !isOwner(actor)) throw mustBeOwner();
  if (!isAdmin(actor)) throw mustBeAdmin();
  if (target.role === Role.owner && isOnlyOwner(world, target)) {
    throw badRequest('The owner permission cannot be removed from the only organization owner.');
  }
}

export function updateUser(world: WorldCtx, actor: User, input: UpdateUserParams): void {
  const target = targetUser(world.store, actor, input.user_id, {
    allowDeactivated: true,
    allowBots: true,
    forAdmin: true,
  });
  if (input.new_email !== undefined) checkMayChangeEmails(actor);
  const newRole = input.role !== undefined && input.role !== target.role ? input.role : undefined;
  if (newRole !== undefined) checkRoleChange(world, actor, target, newRole);
  const name = input.full_name;
  // A name of only whitespace is ignored; one that differs only by surrounding spaces is still announced.
  const newName =
    name !== undefined && name !== target.full_name && name.trim() !== '' ? checkFullName(name) : undefined;
  const applyProfileData =
    input.profile_data !== undefined ? planProfileDataChange(world, actor, target, input.profile_data) : null;
  const newEmail = input.new_email !== undefined ? checkNewEmailOf(world.store, target, input.new_email) : undefined;
  // Everything is checked before anything changes: a refused request changes nothing.
  if (newRole !== undefined) changeUserRole(world, target, newRole);
  if (newName !== undefined) renameUser(world, world.store.users.get(target.user_id)!, newName);
  applyProfileData?.();
  if (newEmail !== undefined) changeDeliveryEmail(world, world.store.users.get(target.user_id)!, newEmail);
}

/** PATCH /users/{email} (FL 313): the same change, the target named by its address. */
export function updateUserByEmail(world: WorldCtx, actor: User, input: ParamsOf<'update-user-by-email'>): void {
  const { email, ...change } = input;
  const target = userByAddressFor(world.store, actor, email);
  if (!target || target.is_system_bot) throw badRequest('No such user');
  updateUser(world, actor, { ...change, user_id: target.user_id });
}
