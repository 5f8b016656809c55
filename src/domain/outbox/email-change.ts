// The two emails of a user's own change of address, as the real server sends them (its
// templates confirm_new_email and notify_change_in_email), in the mock's own words for the
// templates' facts. Both come from the server's security sender ("Zulip account security").
// The confirmation (do_start_email_change_process) goes to the new address from a no-reply
// address, subject "Verify your new email address for <the organization's host>": the
// organization's URL, the old and the new address, the link that makes the change, whom to
// write to when the change was not asked for. The notice (confirm_email_change, once the link
// was followed) goes to the old address from the support address, subject "Zulip email changed
// for <the organization's name>": the new address, and whom to write to when it was not asked for.
import type { User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { SUPPORT_EMAIL } from '../server-info.js';
import { newConfirmationKey } from './links.js';
import { outboxOf } from './outbox.js';

/** FromAddress.security_email_from_name, for the installation name "Zulip". */
const SECURITY_SENDER = 'Zulip account security';

export function sendEmailChangeConfirmation(world: WorldCtx, user: User, newEmail: string, link: string): void {
  const { store } = world;
  const { url } = store.realm;
  const host = new URL(url).host;
  const oldEmail = user.delivery_email;
  outboxOf(store).record(
    {
      kind: 'email',
      template: 'confirm_new_email',
      to: newEmail,
      user_id: user.user_id,
      from_name: SECURITY_SENDER,
      // The real server's tokenized no-reply address: a fresh token per email.
      from_address: `noreply-${newConfirmationKey()}@${new URL(url).hostname}`,
      subject: `Verify your new email address for ${host}`,
      text: `Hello,\n\nSomeone asked to change the email address of the Zulip account on ${url} from ${oldEmail} to ${newEmail}. To make the change, follow this link:\n    <${link}>\n\nDid not ask for it? Write to ${SUPPORT_EMAIL} at once.\n`,
      links: { activate_url: link },
    },
    world.clock.nowMs(),
  );
}

export function sendEmailChangedNotice(world: WorldCtx, user: User, oldEmail: string, newEmail: string): void {
  const { store } = world;
  outboxOf(store).record(
    {
      kind: 'email',
      template: 'notify_change_in_email',
      to: oldEmail,
      user_id: user.user_id,
      from_name: SECURITY_SENDER,
      from_address: SUPPORT_EMAIL,
      subject: `Zulip email changed for ${store.realm.name}`,
      text: `Hello,\n\nThe email address of your Zulip account on ${store.realm.url} is now ${newEmail}. Did not ask for this change? Write to ${SUPPORT_EMAIL} at once.\n`,
      links: {},
    },
    world.clock.nowMs(),
  );
}
