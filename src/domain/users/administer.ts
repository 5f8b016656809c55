// Looking up the user an operation acts on, with the real server's checks in its order: unknown
// IDs and the server's own bots are "No such user"; bots and deactivated users only where the
// operation accepts them; for administration, the caller must be able to administer the target.
import { badRequest, insufficientPermission } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { isAdmin } from './roles.js';

export interface TargetRules {
  allowDeactivated?: boolean;
  allowBots?: boolean;
  /** The caller must be able to administer the target (administrators, or the bot's owner). */
  forAdmin?: boolean;
}

/** Administrators administer everyone; a bot's owner administers that bot. */
const canAdministerUser = (actor: User, target: User) => target.bot_owner_id === actor.user_id || isAdmin(actor);

export function targetUser(store: Store, actor: User, userId: number, rules: TargetRules): User {
  const target = store.users.get(userId);
  if (!target || target.is_system_bot) throw badRequest('No such user');
  if (target.is_bot && !rules.allowBots) throw badRequest('No such user');
  if (!target.is_active && !rules.allowDeactivated) throw badRequest('User is deactivated');
  if (rules.forAdmin && !canAdministerUser(actor, target)) throw insufficientPermission();
  return target;
}
