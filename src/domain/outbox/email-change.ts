// The confirmation email of an email address change (the real server's confirm_new_email, sent
// by do_start_email_change_process): to the new address, from the server's security sender,
// subject "Verify your new email address for <the organization's host>"; the mock's own words
// for the template's facts: the organization's URL, the old and the new address, the link that
// makes the change, and whom to write to when the change was not asked for. The mock records
// it; following the link is not served (the change stays pending, as pending_email shows).
import type { User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { SUPPORT_EMAIL } from '../server-info.js';
import { newConfirmationKey } from './links.js';
import { outboxOf } from './outbox.js';

export function sendEmailChangeConfirmation(world: WorldCtx, user: User, newEmail: string): void {
  const { store } = world;
  const { url } = store.realm;
  const link = `${url}/accounts/confirm_new_email/${newConfirmationKey()}`;
  const oldEmail = user.delivery_email;
  outboxOf(store).record(
    {
      kind: 'email',
      template: 'confirm_new_email',
      to: newEmail,
      user_id: user.user_id,
      subject: `Verify your new email address for ${new URL(url).host}`,
      text: `Hello,\n\nSomeone asked to change the email address of the Zulip account on ${url} from ${oldEmail} to ${newEmail}. To make the change, follow this link:\n    <${link}>\n\nDid not ask for it? Write to ${SUPPORT_EMAIL} at once.\n`,
      links: { activate_url: link },
    },
    world.clock.nowMs(),
  );
}
