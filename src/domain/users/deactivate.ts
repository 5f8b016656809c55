// DELETE /users/{user_id}: an administrator deactivates a person; DELETE /users/me: anyone
// deactivates their own account. The bots the person owns are deactivated first; the optional
// actions apply to those bots, then to the person. Group memberships and subscriptions stay in
// place: a deactivated user simply no longer counts.
import { ApiError, badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { User } from '../../store/state.js';
import { activeUserIds } from './access.js';
import { resetAvatar } from './avatar-upload.js';
import { deleteMessagesSentBy } from './delete-user-messages.js';
import { isAdmin, isOwner, requireAdmin } from './roles.js';
import { renameUser } from './settings.js';

export interface DeactivationActions {
  delete_profile?: boolean;
  delete_public_channel_messages?: boolean;
  delete_private_channel_messages?: boolean;
  delete_direct_messages?: boolean;
}

const DELETED_USER_NAME = 'Deleted user';

function applyActions(ctx: Ctx, user: User, actions: DeactivationActions): void {
  if (actions.delete_profile) {
    renameUser(ctx, user, DELETED_USER_NAME);
    // Back to the default avatar: a new version makes clients drop the old picture.
    resetAvatar(ctx, ctx.store.users.get(user.user_id)!);
  }
  deleteMessagesSentBy(ctx, user, {
    publicChannels: actions.delete_public_channel_messages ?? false,
    privateChannels: actions.delete_private_channel_messages ?? false,
    direct: actions.delete_direct_messages ?? false,
  });
}

function deactivate(ctx: Ctx, user: User): void {
  const { store } = ctx;
  const audience = activeUserIds(store);
  store.users.update(user, { is_active: false });
  ctx.events.publish(audience, {
    type: 'realm_user',
    op: 'update',
    person: { user_id: user.user_id, is_active: false },
  });
  if (user.is_bot) {
    const watchers = audience.filter((id) => id === user.bot_owner_id || isAdmin(store.users.get(id)!));
    ctx.events.publish(watchers, { type: 'realm_bot', op: 'update', bot: { user_id: user.user_id, is_active: false } });
  }
}

const humanOwners = (ctx: Ctx) => ctx.store.users.filter((u) => u.is_active && !u.is_bot && isOwner(u));

/** The target's active bots first (each with the actions), then the target. */
function deactivateWithBots(ctx: Ctx, target: User, actions: DeactivationActions): void {
  const bots = ctx.store.users.filter((u) => u.is_bot && u.is_active && u.bot_owner_id === target.user_id);
  for (const bot of bots) {
    applyActions(ctx, bot, actions);
    deactivate(ctx, bot);
  }
  applyActions(ctx, target, actions);
  deactivate(ctx, target);
}

export function deactivateUser(ctx: Ctx, userId: number, actions: DeactivationActions = {}): void {
  const { store, actor } = ctx;
  requireAdmin(actor);
  // Bots have their own endpoint; this one does not find them.
  const target = store.users.get(userId);
  if (!target || !target.is_active || target.is_bot) throw badRequest('No such user');
  if (isOwner(target)) {
    if (!isOwner(actor)) throw new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    if (humanOwners(ctx).length === 1) throw badRequest('Cannot deactivate the only organization owner');
  }
  deactivateWithBots(ctx, target, actions);
}

/** The real server's CannotDeactivateLastUserError: its own code, the entity in the message and as a field. */
function cannotDeactivateLast(isLastOwner: boolean): ApiError {
  const entity = isLastOwner ? 'organization owner' : 'user';
  return new ApiError('CANNOT_DEACTIVATE_LAST_USER', `Cannot deactivate the only ${entity}.`, 400, {
    entity,
    is_last_owner: isLastOwner,
  });
}

/**
 * DELETE /users/me. "The only user" counts every active account of the organization, bots
 * included; the notification bot and the other system bots belong to the real server's
 * internal organization, so they do not count here.
 */
export function deactivateOwnUser(ctx: Ctx): void {
  const { store, actor } = ctx;
  const accounts = store.users.filter((u) => u.is_active && !u.is_system_bot);
  if (accounts.length === 1) throw cannotDeactivateLast(false);
  if (isOwner(actor) && !actor.is_bot && humanOwners(ctx).length === 1) throw cannotDeactivateLast(true);
  deactivateWithBots(ctx, actor, {});
}
