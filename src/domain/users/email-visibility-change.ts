// A person changes who may see their real address (email_address_visibility, PATCH /settings or
// an administrator's bulk change), with the events the real server's do_change_user_setting
// sends after the `user_settings` one: `realm_user` `update` with the real address to each
// active user who now may see it and with `delivery_email: null` to each who no longer may; and
// when the change is to or from "everyone", the API email changes (the real address or the
// stand-in), so everyone gets `realm_user` `update` with `new_email`, then the avatar's events
// (clients that computed a Gravatar from the address now get its URL, and the reverse).
//
// Queues registered before feature level 163 get none of these: there the organization's
// setting decides for everyone (announceOrganizationEmailVisibility below, for PATCH /realm).
import type { QueueTraits, WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { activeUserIds } from './access.js';
import { announceAvatar } from './avatar-upload.js';
import { canAccessDeliveryEmail, displayEmail, EmailVisibility } from './email-visibility.js';

/** Whether a queue was registered at a level where each account's own setting decides (FL 163). */
export const queueHasPerUserVisibility = (queue?: QueueTraits) =>
  queue?.supports?.('email_visibility_per_user') !== false;
const onlyPerUserQueues = (event: Record<string, unknown>) => (_id: string, _user: number, queue?: QueueTraits) =>
  queueHasPerUserVisibility(queue) ? event : null;

export function announceEmailVisibility(world: WorldCtx, user: User, before: number, after: number): void {
  const { store } = world;
  const gained: number[] = [];
  const lost: number[] = [];
  for (const viewer of store.users.filter((u) => u.is_active)) {
    const could = canAccessDeliveryEmail(viewer, user, before);
    const can = canAccessDeliveryEmail(viewer, user, after);
    if (could !== can) (can ? gained : lost).push(viewer.user_id);
  }
  const publish = (to: number[], event: Record<string, unknown>) =>
    world.events.publish(to, event, onlyPerUserQueues(event));
  const person = (deliveryEmail: string | null) => ({ user_id: user.user_id, delivery_email: deliveryEmail });
  if (gained.length) publish(gained, { type: 'realm_user', op: 'update', person: person(user.delivery_email) });
  if (lost.length) publish(lost, { type: 'realm_user', op: 'update', person: person(null) });

  if (before !== EmailVisibility.everyone && after !== EmailVisibility.everyone) return;
  const updated = store.users.update(user, { email: displayEmail(store.realm, user, after) });
  publish(activeUserIds(store), {
    type: 'realm_user',
    op: 'update',
    person: { user_id: updated.user_id, new_email: updated.email },
  });
  announceAvatar(world, updated, queueHasPerUserVisibility);
}

/**
 * The organization's setting changed (PATCH /realm before feature level 163), as the real
 * server's do_set_realm_property then did after the `realm` event: when the change is to or from
 * "everyone", every person's API email changes (the real address or the stand-in), and everyone
 * gets `realm_user` `update` with `new_email` for each person, deactivated ones included. No
 * `delivery_email` events (those came with FL 163), and only queues below 163 hear of it: the
 * accounts' own settings, which decide from 163, did not change.
 */
export function announceOrganizationEmailVisibility(world: WorldCtx, before: number, after: number): void {
  if (before !== EmailVisibility.everyone && after !== EmailVisibility.everyone) return;
  const { store } = world;
  const audience = activeUserIds(store);
  for (const user of store.users.filter((u) => !u.is_bot)) {
    const event = {
      type: 'realm_user',
      op: 'update',
      person: { user_id: user.user_id, new_email: displayEmail(store.realm, user, after) },
    };
    world.events.publish(audience, event, (_id, _user, queue) => (queueHasPerUserVisibility(queue) ? null : event));
  }
}
