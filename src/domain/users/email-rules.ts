// The real server's rules for an address an account may take in this organization
// (zerver/lib/email_validation.py): the address must be valid; an organization restricted to
// its domains (emails_restricted_to_domains, the realm_domains list, subdomains where a domain
// allows them) refuses other domains and addresses with '+' before the '@'; an unrestricted one
// that refuses disposable addresses (disallow_disposable_email_addresses, on by default) refuses
// a disposable provider's domain. Then the address must be free: not a system bot's, not any
// account's (compared without case). A user's own change of address applies all of them, at the
// request and again when the link is followed; an administrator's change (PATCH /users
// new_email) only the validity and the holder.
import type { Store } from '../../store/store.js';
import { currentSetting } from '../realm/setting-values.js';
import { isValidEmail } from './settings-values.js';
import { userByDeliveryEmail } from './access.js';

/**
 * Disposable providers the mock knows. The real server checks the blocklist of the
 * disposable-email-domains project (thousands of domains, less the few it allows); the mock
 * keeps a handful of the best known, enough for a client to see the refusal.
 */
const DISPOSABLE_DOMAINS = new Set([
  '10minutemail.com',
  'guerrillamail.com',
  'mailinator.com',
  'sharklasers.com',
  'temp-mail.org',
  'trashmail.com',
  'yopmail.com',
]);

const localPartOf = (email: string) => email.slice(0, email.lastIndexOf('@'));
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** The organization's own rule on the address (its domains, or disposable providers), as worded. */
function realmRuleError(store: Store, email: string): string | null {
  const { realm } = store;
  const domain = domainOf(email);
  if (currentSetting(realm, 'emails_restricted_to_domains') !== true) {
    if (currentSetting(realm, 'disallow_disposable_email_addresses') !== false && DISPOSABLE_DOMAINS.has(domain))
      return 'Please use your real email address.';
    return null;
  }
  if (localPartOf(email).includes('+')) return 'Email addresses containing + are not allowed.';
  const allowed = realm.domains ?? [];
  const ok = allowed.some((d) => domain === d.domain || (d.allow_subdomains && domain.endsWith(`.${d.domain}`)));
  return ok ? null : 'Outside your domain.';
}

/** validate_email_is_valid with the organization's validator: null when the address may be used here. */
export function emailErrorForRealm(store: Store, email: string): string | null {
  if (!isValidEmail(email)) return 'Invalid address.';
  return realmRuleError(store, email);
}

/**
 * Who already holds the address (validate_email_not_already_in_realm, briefly worded): a system
 * bot's address is reserved, any account's (active or not, any case) is taken; null when free.
 */
export function existingAccountError(store: Store, email: string): string | null {
  const holder = userByDeliveryEmail(store, email);
  if (!holder) return null;
  if (holder.is_system_bot) return 'Reserved for system bots.';
  return holder.is_active ? 'Already has an account.' : 'Account has been deactivated.';
}
