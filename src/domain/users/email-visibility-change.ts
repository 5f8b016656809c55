// A person changes who may see their real address (email_address_visibility, PATCH /settings or
// an administrator's bulk change), with the events the real server's do_change_user_setting
// sends after the `user_settings` one: `realm_user` `update` with the real address to each
// active user who now may see it and with `delivery_email: null` to each who no longer may; and
// when the change is to or from "everyone", the API email changes (the real address or the
// stand-in), so everyone gets `realm_user` `update` with `new_email`, then the avatar's events
// (clients that computed a Gravatar from the address now get its URL, and the reverse).
import type { WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { activeUserIds } from './access.js';
import { announceAvatar } from './avatar-upload.js';
import { canAccessDeliveryEmail, displayEmail, EmailVisibility } from './email-visibility.js';

export function announceEmailVisibility(world: WorldCtx, user: User, before: number, after: number): void {
  const { store } = world;
  const gained: number[] = [];
  const lost: number[] = [];
  for (const viewer of store.users.filter((u) => u.is_active)) {
    const could = canAccessDeliveryEmail(viewer, user, before);
    const can = canAccessDeliveryEmail(viewer, user, after);
    if (could !== can) (can ? gained : lost).push(viewer.user_id);
  }
  const person = (deliveryEmail: string | null) => ({ user_id: user.user_id, delivery_email: deliveryEmail });
  if (gained.length)
    world.events.publish(gained, { type: 'realm_user', op: 'update', person: person(user.delivery_email) });
  if (lost.length) world.events.publish(lost, { type: 'realm_user', op: 'update', person: person(null) });

  if (before !== EmailVisibility.everyone && after !== EmailVisibility.everyone) return;
  const updated = store.users.update(user, { email: displayEmail(store.realm, user, after) });
  world.events.publish(activeUserIds(store), {
    type: 'realm_user',
    op: 'update',
    person: { user_id: updated.user_id, new_email: updated.email },
  });
  announceAvatar(world, updated);
}
