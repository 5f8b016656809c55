// An administrator changes another account's email address (PATCH /users `new_email`, FL 313),
// as the real server's update_user_backend and do_change_user_delivery_email do: the caller must
// be an administrator holding the can_change_user_emails special permission (asked before any
// other part of the request is looked at, even when the address would not change); the address
// is checked only when it differs from the current one as written (a change of case alone is
// a change, and then finds the target's own account); the organization's email domain rules are
// not applied to such a change, unlike a user's own change of address.
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { activeUserIds } from './access.js';
import { announceAvatar } from './avatar-upload.js';
import { avatarSource } from './avatar.js';
import {
  canAccessDeliveryEmail,
  EmailVisibility,
  emailVisibilityOf,
  organizationEmailVisibility,
} from './email-visibility.js';
import { queueHasPerUserVisibility } from './email-visibility-change.js';
import { isAdmin } from './roles.js';
import { isValidEmail } from './settings-values.js';
import { existingAccountError } from './email-rules.js';

/** The permission check of a request that names `new_email`, whatever its value. */
export function checkMayChangeEmails(actor: User): void {
  if (!actor.can_change_user_emails || !isAdmin(actor)) throw badRequest('User not authorized to change user emails');
}

/** The new address to apply, checked; undefined when it is the current one exactly. */
export function checkNewEmailOf(store: Store, target: User, newEmail: string): string | undefined {
  if (newEmail === target.delivery_email) return undefined;
  if (!isValidEmail(newEmail)) throw badRequest('Invalid new email address.');
  const taken = existingAccountError(store, newEmail);
  if (taken) throw badRequest(`New email value error: ${taken}`);
  return newEmail;
}

/**
 * The change itself (do_change_user_delivery_email): the real address, and the API email too
 * when the account shows its address to everyone. Events, in the real server's order:
 * `realm_user` `update` with `delivery_email` to those who may see the real address; for a
 * Gravatar avatar (which follows the address) the avatar's fields, as an avatar change sends
 * them; and with the API email changed, `realm_user` `update` with `new_email` to everyone.
 * Queues registered before feature level 163 get the real address only for the user themselves,
 * and `new_email` where the organization's setting shows every address.
 */
export function changeDeliveryEmail(world: WorldCtx, user: User, newEmail: string): void {
  const { store } = world;
  const publicEmail = emailVisibilityOf(user) === EmailVisibility.everyone;
  // Queues registered before feature level 163 see the organization's setting decide instead.
  const publicForOldQueues = organizationEmailVisibility(store.realm) === EmailVisibility.everyone;
  const updated = store.users.update(
    user,
    publicEmail ? { delivery_email: newEmail, email: newEmail } : { delivery_email: newEmail },
  );
  const seers = store.users.filter((u) => u.is_active && canAccessDeliveryEmail(u, updated)).map((u) => u.user_id);
  // Before FL 163 the new address went to the user alone.
  const delivery = { type: 'realm_user', op: 'update', person: { user_id: updated.user_id, delivery_email: newEmail } };
  world.events.publish(new Set([...seers, updated.user_id]), delivery, (_id, viewerId, queue) =>
    queueHasPerUserVisibility(queue)
      ? seers.includes(viewerId)
        ? delivery
        : null
      : viewerId === updated.user_id
        ? delivery
        : null,
  );
  if (avatarSource(updated) === 'G') announceAvatar(world, updated);
  if (publicEmail || publicForOldQueues) {
    const renamed = { type: 'realm_user', op: 'update', person: { user_id: updated.user_id, new_email: newEmail } };
    world.events.publish(activeUserIds(store), renamed, (_id, _viewer, queue) =>
      (queueHasPerUserVisibility(queue) ? publicEmail : publicForOldQueues) ? renamed : null,
    );
  }
}
