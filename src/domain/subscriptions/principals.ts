// The `principals` of the subscribe and unsubscribe endpoints: user IDs or API email addresses of
// users of the organization (bots included, deactivated users refused), and who may act for whom.
import { badRequest, insufficientPermission } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { Stream, User } from '../../store/state.js';
import { hasMetadataAccess } from '../channels/access.js';
import { holdsSetting } from '../group-settings/membership.js';
import { isAdmin, isGuest } from '../users/roles.js';
import { userByApiEmail } from '../users/email-visibility.js';

export type Principals = string[] | number[];

/**
 * The named users, each once. Every one must exist ("No such user") and be active. Emails are API
 * emails; `organization`: below feature level 163, as the organization's setting gives them.
 */
export function principalUsers(store: Store, principals: Principals, organization = false): User[] {
  const found = (principals as Array<string | number>).map((p) => {
    const user = typeof p === 'number' ? store.users.get(p) : userByApiEmail(store, p.trim(), organization);
    // The server's own bots belong to no organization.
    return user && !user.is_system_bot ? user : undefined;
  });
  if (found.some((u) => !u)) throw badRequest('No such user');
  const users = [...new Set(found as User[])];
  if (users.some((u) => !u.is_active)) throw badRequest('User is deactivated');
  return users;
}

/** Whether any principal is someone other than the caller (by ID or the caller's API email, `actorEmail`). */
export function namesOthers(actor: User, principals: Principals | undefined, actorEmail = actor.email): boolean {
  return (principals ?? []).some((p: string | number) =>
    typeof p === 'number' ? p !== actor.user_id : p.trim().toLowerCase() !== actorEmail.toLowerCase(),
  );
}

/** The caller, or a bot the caller owns. */
export const controlsUser = (actor: User, target: User) =>
  target.user_id === actor.user_id || (target.is_bot && target.bot_owner_id === actor.user_id);

/**
 * May add other users to an existing channel the caller can read: administrators, holders of the
 * organization's can_add_subscribers_group, and (guests never) those who administer the channel
 * or hold its can_add_subscribers_group.
 */
export function canAddSubscribers(store: Store, actor: User, stream: Stream): boolean {
  if (isAdmin(actor) || holdsSetting(store, store.realm.can_add_subscribers_group, actor.user_id)) return true;
  if (isGuest(actor)) return false;
  return (
    holdsSetting(store, stream.can_administer_channel_group, actor.user_id) ||
    holdsSetting(store, stream.can_add_subscribers_group, actor.user_id)
  );
}

/**
 * May remove other users from the channel: administrators (even without access), those who
 * administer it, and those who can see it and hold its can_remove_subscribers_group.
 */
function canRemoveSubscribers(store: Store, actor: User, stream: Stream): boolean {
  if (isAdmin(actor)) return true;
  if (isGuest(actor)) return false;
  if (holdsSetting(store, stream.can_administer_channel_group, actor.user_id)) return true;
  return (
    hasMetadataAccess(store, actor, stream) && holdsSetting(store, stream.can_remove_subscribers_group, actor.user_id)
  );
}

export function checkCanRemoveSubscribers(store: Store, actor: User, streams: Stream[]): void {
  if (!streams.every((s) => canRemoveSubscribers(store, actor, s))) throw insufficientPermission();
}
