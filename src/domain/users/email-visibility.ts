// Who may see a user's real address, and the address everyone else is shown. Each account decides
// with its own `email_address_visibility` setting (a user setting since feature level 163), as
// the real server's can_access_delivery_email does: the user always sees their own; otherwise
// the setting's value must be one of those the viewer's role may see. Bots always show theirs to
// everyone. The API email (`email`) is the real address only for accounts that show it to
// everyone; any other account's is a stand-in, `user<id>@<the organization's fake email domain>`.
// Before feature level 163 the organization's setting (PATCH /realm) decided for every person,
// and user objects carried `delivery_email` only where that setting let the viewer see addresses.
import type { Store } from '../../store/store.js';
import type { QueueTraits } from '../context.js';
import { Role, type Realm, type User } from '../../store/state.js';
import { userByDeliveryEmail, userByEmail } from './access.js';

/** The values of email_address_visibility (the description lists them too). */
export const EmailVisibility = { everyone: 1, members: 2, administrators: 3, nobody: 4, moderators: 5 } as const;

/** The values whose addresses each role may see (the real ROLE_TO_ACCESSIBLE_EMAIL_ADDRESS_VISIBILITY_IDS). */
const VISIBLE_TO_ROLE: Record<number, readonly number[]> = {
  [Role.owner]: [1, 2, 3, 5],
  [Role.administrator]: [1, 2, 3, 5],
  [Role.moderator]: [1, 2, 5],
  [Role.member]: [1, 2],
  [Role.guest]: [1],
};

/** The account's setting (a bot's is "everyone" from its creation on). */
export function emailVisibilityOf(user: Pick<User, 'settings'>): number {
  return (user.settings.email_address_visibility as number | undefined) ?? EmailVisibility.everyone;
}

/** Whether a viewer of this role may see the address of an account with this setting (self aside). */
function roleSeesVisibility(role: number, visibility: number): boolean {
  return VISIBLE_TO_ROLE[role]?.includes(visibility) ?? false;
}

/** Whether `viewer` is shown `target`'s real address, for `target`'s setting (by default its current one). */
export function canAccessDeliveryEmail(viewer: User, target: User, visibility = emailVisibilityOf(target)): boolean {
  return viewer.user_id === target.user_id || roleSeesVisibility(viewer.role, visibility);
}

/**
 * The organization's setting, which servers before feature level 163 applied to every person
 * (the state keeps it apart from the accounts' own: state.ts, Realm.email_address_visibility).
 */
export function organizationEmailVisibility(realm: Realm): number {
  return realm.email_address_visibility ?? EmailVisibility.everyone;
}

/**
 * Before feature level 163 (the organization's setting deciding): whether user objects carry
 * `delivery_email` for this viewer at all: only where the setting hides addresses and the
 * viewer's role may see them, for every user alike (the viewer's own address included only so).
 */
export function listsDeliveryEmails(realm: Realm, viewer: User): boolean {
  const visibility = organizationEmailVisibility(realm);
  return visibility !== EmailVisibility.everyone && roleSeesVisibility(viewer.role, visibility);
}

/**
 * Before feature level 163: client_gravatar as the server applied it, forced off while the
 * organization's setting hides addresses (clients could not compute the URLs): register (the
 * queue's own flag included), GET /messages and GET /users did so.
 */
export function organizationClientGravatar(realm: Realm, requested: boolean): boolean {
  return requested && organizationEmailVisibility(realm) === EmailVisibility.everyone;
}

/**
 * Before feature level 163: the API email by the organization's setting, the stand-in for every
 * person where it hides addresses (bots always show theirs).
 */
export function organizationDisplayEmail(realm: Realm, user: User): string {
  return user.is_bot ? user.email : displayEmail(realm, user, organizationEmailVisibility(realm));
}

/**
 * Before feature level 163: the user whose API email this is by the organization's setting
 * (any case): the stand-in of a person where it hides addresses, the real address otherwise.
 */
export function userByOrganizationDisplayEmail(store: Store, email: string): User | undefined {
  const id = dummyEmailUserId(store.realm, email.toLowerCase());
  const visibility = organizationEmailVisibility(store.realm);
  if (id !== null) {
    const user = store.users.get(id);
    return user && organizationDisplayEmail(store.realm, user) === email.toLowerCase() ? user : undefined;
  }
  return userByDeliveryEmail(store, email, (u) => u.is_bot || visibility === EmailVisibility.everyone);
}

/**
 * The user an API email names (any case) for a request at a level: before feature level 163
 * (`organization`) the API email the organization's setting gives, from 163 the accounts' own.
 * Message recipients, `principals` and presence looked people up so.
 */
export function userByApiEmail(store: Store, email: string, organization: boolean): User | undefined {
  return organization ? userByOrganizationDisplayEmail(store, email) : userByEmail(store, email);
}

/** A user's API email for a request at a level (see userByApiEmail). */
export function apiEmailOf(realm: Realm, user: User, organization: boolean): string {
  return organization ? organizationDisplayEmail(realm, user) : user.email;
}

/**
 * The per-queue choice of an event that names people by API email: as published for queues at
 * feature level 163 or later, and below it the form `older` makes (with the organization's
 * addresses), made once for every such queue and only if one takes it.
 */
export function apiEmailsByQueueLevel<E extends Record<string, unknown>>(event: E, older: () => E) {
  let made: E | undefined;
  return (_queueId: string, _userId: number, queue?: QueueTraits): E =>
    queue?.supports?.('email_visibility_per_user') === false ? (made ??= older()) : event;
}

/**
 * The domain of stand-in addresses: the real server's get_fake_email_domain, which is also the
 * domain of bots' addresses (realm_bot_domain): the organization's host when it can end an
 * address, otherwise the server's FAKE_EMAIL_DOMAIN (the mock: the host name without the port).
 */
export function fakeEmailDomain(realm: Realm): string {
  const shown = (realm.shown_settings as Record<string, unknown> | undefined)?.bot_domain;
  return typeof shown === 'string' ? shown : new URL(realm.url).hostname;
}

/** The stand-in API email of an account that hides its address. */
function dummyEmail(realm: Realm, userId: number): string {
  return `user${userId}@${fakeEmailDomain(realm)}`;
}

/** The API email an account has with this setting (get_display_email_address). */
export function displayEmail(realm: Realm, user: Pick<User, 'user_id' | 'delivery_email'>, visibility: number): string {
  return visibility === EmailVisibility.everyone ? user.delivery_email : dummyEmail(realm, user.user_id);
}

/** The user ID a stand-in address names (`user<id>@<fake domain>`, as written), or null. */
function dummyEmailUserId(realm: Realm, email: string): number | null {
  const match = /^user(\d+)@(.+)$/.exec(email);
  if (!match || match[2] !== fakeEmailDomain(realm)) return null;
  return Number(match[1]);
}

/**
 * The user an email address names for `viewer` (the real server's access_user_by_email, feature
 * level 302): a stand-in address names its user by ID; a real address (any case) finds only an
 * account whose setting lets the viewer's role see it (the viewer's own included only so).
 */
export function userByAddressFor(store: Store, viewer: User, email: string): User | undefined {
  const id = dummyEmailUserId(store.realm, email);
  if (id !== null) return store.users.get(id);
  return userByDeliveryEmail(store, email.trim(), (u) => roleSeesVisibility(viewer.role, emailVisibilityOf(u)));
}
