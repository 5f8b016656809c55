// Before feature level 163 the organization's email_address_visibility decided every person's API
// email (users/email-visibility.ts), in message objects too: the sender's `sender_email`, the
// `email` of each direct-message recipient in `display_recipient` and of each reaction's `user`.
// One rewrite of a message dict (as messageDict makes it) serves the read endpoints and the
// `message` events of queues registered below 163.
import type { Store } from '../../store/store.js';
import { organizationDisplayEmail } from '../users/email-visibility.js';

type Obj = Record<string, unknown>;

/** A copy of `dict` with its addresses as the organization's setting shows them (the parts that change, copied). */
export function withOrganizationEmails(store: Store, dict: Obj): Obj {
  const emailOf = (id: unknown, fallback: unknown) => {
    const user = typeof id === 'number' ? store.users.get(id) : undefined;
    return user ? organizationDisplayEmail(store.realm, user) : fallback;
  };
  const out: Obj = { ...dict, sender_email: emailOf(dict.sender_id, dict.sender_email) };
  if (Array.isArray(dict.display_recipient)) {
    out.display_recipient = (dict.display_recipient as Obj[]).map((r) => ({ ...r, email: emailOf(r.id, r.email) }));
  }
  if (Array.isArray(dict.reactions)) {
    out.reactions = (dict.reactions as Obj[]).map((r) =>
      r.user && typeof r.user === 'object'
        ? { ...r, user: { ...(r.user as Obj), email: emailOf(r.user_id, (r.user as Obj).email) } }
        : r,
    );
  }
  return out;
}
