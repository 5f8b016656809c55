// The confirmation email of an email address change (the real server's confirm_new_email): sent
// to the new address, with the link that would make the change. The mock records it; following
// the link is not served (the change stays pending, as pending_email shows).
import type { User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { newConfirmationKey } from './links.js';
import { outboxOf } from './outbox.js';

export function sendEmailChangeConfirmation(world: WorldCtx, user: User, newEmail: string): void {
  const { store } = world;
  const host = new URL(store.realm.url).host;
  const link = `${store.realm.url}/accounts/confirm_new_email/${newConfirmationKey()}`;
  outboxOf(store).record(
    {
      kind: 'email',
      template: 'confirm_new_email',
      to: newEmail,
      user_id: user.user_id,
      subject: `Verify your new email address for ${host}`,
      text: `We received a request to change the email address for the account ${user.delivery_email} on ${store.realm.name} to ${newEmail}.\n\nTo confirm this change, follow this link:\n    <${link}>\n`,
      links: { activate_url: link },
    },
    world.clock.nowMs(),
  );
}
