// POST /invites: email invitations. The checks run in the real server's order (permission, role,
// addresses given, channels, groups, the inviter's account age, each address); an invalid
// address fails every one, addresses in use are skipped (the error says so, the rest are invited).
import { ApiError, badRequest } from '../../errors.js';
import type { Ctx, ParamsOf } from '../context.js';
import type { Invite, Stream, User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { DerivedSlot } from '../../store/derived.js';
import { accessStreamContentById } from '../channels/access.js';
import { canAddSubscribers } from '../subscriptions/principals.js';
import { groupForUpdate } from '../groups/access.js';
import { emailErrorForRealm } from '../users/email-rules.js';
import { isAdmin } from '../users/roles.js';
import { checkCanInviteByEmail, checkRoleBasedPermissions, needsAdmin, requireMemberOrAdmin } from './access.js';
import { newConfirmationKey } from '../outbox/links.js';
import { sendInvitationEmail } from './emails.js';
import { notifyInvitesChanged } from './notify.js';
import { userByDeliveryEmail } from '../users/access.js';

type Problem = [email: string, problem: string, deactivated: boolean];

const invitationFailed = (msg: string, errors: Problem[], sent: boolean) =>
  new ApiError('INVITATION_FAILED', msg, 400, {
    errors,
    sent_invitations: sent,
    license_limit_reached: false,
    daily_limit_reached: false,
  });

/** The real server's INVITES_DEFAULT_REALM_DAILY_MAX (the realm's max_invites when not raised). */
const DAILY_MAX_INVITES = 100;

/**
 * check_invite_limit: where anyone may create an organization (OPEN_REALM_CREATION, the
 * development server), invitation emails count against a daily limit, so that a client that
 * never stops inviting is refused. The real server sums its per-day counts of today and yesterday
 * (UTC); the mock counts the email invitations made in those two days (a resent email is checked,
 * not counted).
 */
export function checkInviteLimit(ctx: Ctx, invitees: number): void {
  if (!ctx.server.rules.openRealmCreation) return;
  const now = ctx.clock.now();
  const since = Math.floor(now / 86400) * 86400 - 86400;
  let recent = 0;
  // Email invitations only (an organization may hold thousands of links).
  for (const i of ctx.store.invites.group('kind', 'email')) if (i.invited >= since) recent++;
  if (invitees + recent > DAILY_MAX_INVITES)
    throw new ApiError(
      'INVITATION_FAILED',
      'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
      400,
      { errors: [], sent_invitations: false, license_limit_reached: false, daily_limit_reached: true },
    );
}

/** Addresses separated by commas or newlines; "Name <address>" gives the address. */
function inviteeEmails(raw: string): string[] {
  const out = new Set<string>();
  for (let part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    if (named) part = named[1];
    out.add(part.trim());
  }
  return [...out];
}

/** The channels of an invitation: each accessible, and one the inviter may add subscribers to (or a default channel). */
export function streamsForInvite(ctx: Ctx, streamIds: number[]): Stream[] {
  const streams = streamIds.map((id) => {
    try {
      return accessStreamContentById(ctx.store, ctx.actor, id);
    } catch {
      throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    }
  });
  const defaults = ctx.store.realm.default_stream_ids;
  if (streams.some((s) => !defaults.includes(s.stream_id) && !canAddSubscribers(ctx.store, ctx.actor, s))) {
    throw badRequest('You do not have permission to subscribe other users to channels.');
  }
  return streams;
}

/** The groups of an invitation: each one the inviter may add members to. */
export function groupsForInvite(ctx: Ctx, groupIds: number[] | undefined): number[] {
  return (groupIds ?? []).map((id) => groupForUpdate(ctx.store, ctx.actor, id, 'can_add_members_group').id);
}

/** The largest ID of each kind, as of a version of the invitations (recounted after any other change). */
const LARGEST_IDS = new DerivedSlot(() => ({ version: '', email: 0, link: 0 }));

/**
 * Stores a new invitation with the next ID of its kind (the real server keeps the two kinds in
 * two tables, each with its own sequence) and a new confirmation key.
 */
export function insertInvite(store: Store, row: Omit<Invite, 'id' | 'key'>): Invite {
  const largest = store.derived.of(LARGEST_IDS);
  if (largest.version !== store.partsVersion(['invites'])) {
    largest.email = 0;
    largest.link = 0;
    for (const i of store.invites.all()) {
      if (i.is_multiuse) largest.link = Math.max(largest.link, i.id);
      else largest.email = Math.max(largest.email, i.id);
    }
  }
  const id = row.is_multiuse ? ++largest.link : ++largest.email;
  // Object.assign, not a spread with fields after it: V8 (Node 20) takes a slow path for that.
  const invite = store.invites.insert(Object.assign({}, row, { id, key: newConfirmationKey() }));
  largest.version = store.partsVersion(['invites']);
  return invite;
}

/**
 * The welcome text an invitation keeps (FL 416): an administrator's own, if given; anyone else's
 * is dropped, so the organization's setting applies when the account is made.
 */
export const ownWelcomeText = (actor: User, text: string | null | undefined): string | null =>
  isAdmin(actor) ? (text ?? null) : null;

/** The expiry of an invitation made now, from its validity in minutes (null: never). */
export const expiryOf = (ctx: Ctx, minutes: number | null) =>
  minutes === null ? null : ctx.clock.now() + minutes * 60;

export function sendInvites(ctx: Ctx, p: ParamsOf<'send-invites'>): void {
  const { store, actor } = ctx;
  requireMemberOrAdmin(actor);
  checkCanInviteByEmail(store, actor);
  checkRoleBasedPermissions(actor, p.invite_as, needsAdmin(p.invite_as));
  if (!p.invitee_emails) throw badRequest('You must specify at least one email address.');
  const emails = inviteeEmails(p.invitee_emails);
  const streams = streamsForInvite(ctx, p.stream_ids);
  const groupIds = groupsForInvite(ctx, p.group_ids);
  // do_invite_users checks the limit first, before the account's age and the addresses.
  checkInviteLimit(ctx, emails.length);

  const now = ctx.clock.now();
  // INVITES_MIN_USER_AGE_DAYS: how old a member's account must be to invite outside invite-only
  // organizations (0 on the development server, 3 in production).
  const minAgeSeconds = ctx.server.rules.invitesMinUserAgeDays * 24 * 60 * 60;
  if (
    !store.realm.shown_settings?.invite_required &&
    !isAdmin(actor) &&
    Date.parse(actor.date_joined) / 1000 > now - minAgeSeconds
  ) {
    throw invitationFailed(
      'Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.',
      [],
      false,
    );
  }
  const invalid: Problem[] = [];
  const good: string[] = [];
  for (const email of emails) {
    if (email === '') continue;
    // The organization's address rules, as for an account's own address (validate_email_is_valid).
    const problem = emailErrorForRealm(store, email);
    if (problem) invalid.push([email, problem, false]);
    else good.push(email);
  }
  const skipped: Problem[] = [];
  const toInvite = good.filter((email) => {
    const existing = userByDeliveryEmail(store, email);
    if (!existing) return true;
    skipped.push([
      email,
      existing.is_active ? 'Already has an account.' : 'Account has been deactivated.',
      !existing.is_active,
    ]);
    return false;
  });
  if (invalid.length)
    throw invitationFailed(
      "Some emails did not validate, so we didn't send any invitations.",
      [...invalid, ...skipped],
      false,
    );
  if (skipped.length && skipped.length === emails.length)
    throw invitationFailed("We weren't able to invite anyone.", skipped, false);

  for (const email of toInvite) {
    const invite = insertInvite(store, {
      is_multiuse: false,
      email,
      invited_by_user_id: actor.user_id,
      invited: now,
      expiry_date: expiryOf(ctx, p.invite_expires_in_minutes),
      invited_as: p.invite_as,
      stream_ids: streams.map((s) => s.stream_id),
      group_ids: groupIds,
      include_realm_default_subscriptions: p.include_realm_default_subscriptions ?? false,
      notify_referrer_on_join: p.notify_referrer_on_join ?? true,
      welcome_message_custom_text: ownWelcomeText(actor, p.welcome_message_custom_text),
      status: 'active',
    });
    sendInvitationEmail(ctx, invite, actor);
  }
  notifyInvitesChanged(ctx, actor.user_id, ctx.supports('multiuse_invites_by_group'));
  if (skipped.length) {
    throw invitationFailed(
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      skipped,
      true,
    );
  }
}
