// A user's own change of email address, from the request (PATCH /settings `email`) to the link
// followed, as the real server does it (do_start_email_change_process, confirm_email_change,
// get_object_from_key). Each request gets its own confirmation key, valid one day
// (CONFIRMATION_LINK_DEFAULT_VALIDITY_DAYS) on the mock clock; a newer request revokes the
// user's older ones; a key is used up as soon as it is found good, even when a later check
// refuses the change. The real server's page is reached through the control API
// (POST /__mock/email-changes/confirm).
//
// The requests are kept beside the store, like the outbox that holds their links: a reset or an
// import forgets both. Each user keeps their newest five (the most the real server's
// email_change_by_user rule allows in a day); an older key is forgotten, and then answers as
// one that never existed rather than as a revoked one.
import { ApiError, badRequest } from '../../errors.js';
import { DerivedSlot } from '../../store/derived.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { sendEmailChangeConfirmation, sendEmailChangedNotice } from '../outbox/email-change.js';
import { emailChangeLink, keyOfLink, newConfirmationKey } from '../outbox/links.js';
import { currentSetting } from '../realm/setting-values.js';
import { changeDeliveryEmail } from './change-email.js';
import { emailErrorForRealm, existingAccountError } from './email-rules.js';
import { isAdmin } from './roles.js';

const VALIDITY_MS = 24 * 60 * 60 * 1000;
const KEPT_PER_USER = 5;

interface EmailChangeRequest {
  key: string;
  user_id: number;
  old_email: string;
  new_email: string;
  expires_ms: number;
  status: 'active' | 'used' | 'revoked';
}

class EmailChangeRequests {
  readonly byKey = new Map<string, EmailChangeRequest>();
  /** Each user's requests, newest first. */
  readonly byUser = new Map<number, EmailChangeRequest[]>();
  private attached = false;

  attach(store: Store): this {
    if (this.attached) return this;
    this.attached = true;
    store.onChange((change) => {
      if (change.t === 'load') {
        this.byKey.clear();
        this.byUser.clear();
      }
    });
    return this;
  }

  add(request: EmailChangeRequest): void {
    const older = this.byUser.get(request.user_id) ?? [];
    for (const r of older) if (r.status === 'active') r.status = 'revoked';
    const kept = [request, ...older];
    for (const dropped of kept.splice(KEPT_PER_USER)) this.byKey.delete(dropped.key);
    this.byUser.set(request.user_id, kept);
    this.byKey.set(request.key, request);
  }
}

const REQUESTS = new DerivedSlot(() => new EmailChangeRequests());
const requestsOf = (store: Store) => store.derived.of(REQUESTS).attach(store);

/**
 * The real server's checks of an address the user asks for (validate_email_change_request), in
 * its order: the organization's rule on changes (administrators exempt), the address and the
 * organization's email rules, who already holds it. Run at the request and again at the link.
 */
export function checkOwnNewEmail(store: Store, user: User, email: string): void {
  if (currentSetting(store.realm, 'email_changes_disabled') === true && !isAdmin(user))
    throw badRequest('Email address changes are disabled in this organization.');
  const invalid = emailErrorForRealm(store, email);
  if (invalid) throw badRequest(invalid);
  const taken = existingAccountError(store, email);
  if (taken) throw badRequest(taken);
}

/** The request itself: a new key (older ones revoked), the pending address, the confirmation email. */
export function startEmailChange(world: WorldCtx, user: User, newEmail: string): void {
  const { store } = world;
  const key = newConfirmationKey();
  requestsOf(store).add({
    key,
    user_id: user.user_id,
    old_email: user.delivery_email,
    new_email: newEmail,
    expires_ms: world.clock.nowMs() + VALIDITY_MS,
    status: 'active',
  });
  const updated = store.users.update(user, { pending_email: newEmail });
  sendEmailChangeConfirmation(world, updated, newEmail, emailChangeLink(store.realm.url, key));
}

/**
 * Refusals of the control API's confirm call (described in openapi/control.yaml, not in the API's
 * description: no API operation answers them). A bad key is refused as the page does
 * (render_confirmation_key_error: 404, the page's headline); the other refusals as the real
 * server answers the errors its view raises.
 */
const refused = (code: string, msg: string, status: number) => new ApiError(code, msg, status);
const malformed = () => refused('BAD_REQUEST', 'Whoops. The confirmation link is malformed.', 404);
const unknownKey = () => refused('BAD_REQUEST', "Whoops. We couldn't find your confirmation link in the system.", 404);
const expiredOrUsed = () =>
  refused('BAD_REQUEST', 'Whoops. The confirmation link has expired or been deactivated.', 404);

export type ConfirmedEmailChange = {
  user_id: number;
  old_email: string;
  new_email: string;
  /** The account's API email afterwards (the new address only when everyone may see it). */
  email: string;
};

/**
 * Following the link (confirm_email_change), checks in the real server's order: the key's form,
 * whether it exists, its expiry, whether it was used or revoked (from here on it is used up);
 * the account's address must still be the one the request was made from; a deactivated
 * organization (the real page sends the browser to its deactivation notice), a deactivated
 * account; then the request's checks again, as they stand now. The change is the one an
 * administrator's new_email makes (same events); the old address then gets the notice.
 */
export function confirmEmailChange(world: WorldCtx, link: string): ConfirmedEmailChange {
  const { store } = world;
  const key = keyOfLink(link);
  if (key.length !== 24 && key.length !== 40) throw malformed();
  const request = requestsOf(store).byKey.get(key);
  if (!request) throw unknownKey();
  if (world.clock.nowMs() > request.expires_ms || request.status !== 'active') throw expiredOrUsed();
  request.status = 'used';
  const user = store.users.get(request.user_id);
  if (!user) throw unknownKey();
  if (user.delivery_email !== request.old_email) throw expiredOrUsed();
  if (store.realm.deactivated) throw refused('REALM_DEACTIVATED', 'This organization has been deactivated', 400);
  if (!user.is_active) throw refused('USER_DEACTIVATED', 'Account is deactivated', 401);
  checkOwnNewEmail(store, user, request.new_email);

  store.users.update(user, { pending_email: null });
  changeDeliveryEmail(world, store.users.get(user.user_id)!, request.new_email);
  const changed = store.users.get(user.user_id)!;
  sendEmailChangedNotice(world, changed, request.old_email, request.new_email);
  return { user_id: changed.user_id, old_email: request.old_email, new_email: request.new_email, email: changed.email };
}
