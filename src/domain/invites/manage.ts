// Reusable links, the list of pending invitations, revoking and resending (the real server's
// zerver/actions/invites.py). Expired, used and revoked invitations are not listed.
import type { Ctx, ParamsOf } from '../context.js';
import type { Invite } from '../../store/state.js';
import { isAdmin } from '../users/roles.js';
import {
  checkCanCreateLinks,
  checkRoleBasedPermissions,
  emailInviteForUpdate,
  linkForUpdate,
  needsAdmin,
  requireMemberOrAdmin,
} from './access.js';
import { inviteLink } from '../outbox/links.js';
import { checkInviteLimit, expiryOf, groupsForInvite, insertInvite, ownWelcomeText, streamsForInvite } from './send.js';
import { cancelInvitationReminder, sendInvitationEmail } from './emails.js';
import { notifyInvitesChanged } from './notify.js';

export function createInviteLink(ctx: Ctx, p: ParamsOf<'create-invite-link'>): { invite_link: string } {
  const { store, actor } = ctx;
  // Before FL 209 the administrators-only gate stood first (guests and bots met it too).
  if (ctx.supports('multiuse_invites_by_group')) requireMemberOrAdmin(actor);
  checkCanCreateLinks(ctx);
  checkRoleBasedPermissions(actor, p.invite_as, needsAdmin(p.invite_as));
  const streams = streamsForInvite(ctx, p.stream_ids);
  const groupIds = groupsForInvite(ctx, p.group_ids);
  const invite = insertInvite(store, {
    is_multiuse: true,
    email: null,
    invited_by_user_id: actor.user_id,
    invited: ctx.clock.now(),
    expiry_date: expiryOf(ctx, p.invite_expires_in_minutes),
    invited_as: p.invite_as,
    stream_ids: streams.map((s) => s.stream_id),
    group_ids: groupIds,
    include_realm_default_subscriptions: p.include_realm_default_subscriptions ?? false,
    notify_referrer_on_join: true,
    welcome_message_custom_text: ownWelcomeText(actor, p.welcome_message_custom_text),
    status: 'active',
  });
  notifyInvitesChanged(ctx, actor.user_id, ctx.supports('multiuse_invites_by_group'));
  return { invite_link: inviteLink(store.realm.url, invite) };
}

/** Active and not expired at `now` (UNIX seconds). */
export const isPending = (invite: Invite, now: number) =>
  invite.status === 'active' && (invite.expiry_date === null || invite.expiry_date >= now);

export function listInvites(ctx: Ctx): { invites: Array<Record<string, unknown>> } {
  const { store, actor } = ctx;
  requireMemberOrAdmin(actor);
  const now = ctx.clock.now();
  const mine = (i: Invite) => isAdmin(actor) || i.invited_by_user_id === actor.user_id;
  const rows = store.invites.filter((i) => isPending(i, now) && mine(i));
  // Email invitations first, then links, each in creation order (the real server's two queries).
  rows.sort((a, b) => Number(a.is_multiuse) - Number(b.is_multiuse) || a.id - b.id);
  return {
    invites: rows.map((i) =>
      i.is_multiuse
        ? {
            id: i.id,
            invited_by_user_id: i.invited_by_user_id,
            invited: i.invited,
            expiry_date: i.expiry_date,
            invited_as: i.invited_as,
            is_multiuse: true,
            link_url: inviteLink(store.realm.url, i),
          }
        : {
            id: i.id,
            email: i.email,
            invited_by_user_id: i.invited_by_user_id,
            invited: i.invited,
            expiry_date: i.expiry_date,
            invited_as: i.invited_as,
            is_multiuse: false,
            notify_referrer_on_join: i.notify_referrer_on_join,
          },
    ),
  };
}

export function revokeEmailInvite(ctx: Ctx, inviteId: number): void {
  requireMemberOrAdmin(ctx.actor);
  const invite = emailInviteForUpdate(ctx.store, ctx.actor, inviteId);
  ctx.store.invites.update(invite, { status: 'revoked' });
  cancelInvitationReminder(ctx, invite);
  notifyInvitesChanged(ctx, invite.invited_by_user_id, ctx.supports('multiuse_invites_by_group'));
}

export function revokeInviteLink(ctx: Ctx, inviteId: number): void {
  if (ctx.supports('multiuse_invites_by_group')) requireMemberOrAdmin(ctx.actor);
  const invite = linkForUpdate(ctx, inviteId);
  ctx.store.invites.update(invite, { status: 'revoked' });
  notifyInvitesChanged(ctx, invite.invited_by_user_id, ctx.supports('multiuse_invites_by_group'));
}

/** The email again, from the invitation's creator; the reminder is scheduled anew. */
export function resendEmailInvite(ctx: Ctx, inviteId: number): void {
  requireMemberOrAdmin(ctx.actor);
  const invite = emailInviteForUpdate(ctx.store, ctx.actor, inviteId);
  const referrer = ctx.store.users.get(invite.invited_by_user_id)!;
  checkInviteLimit(ctx, 1);
  sendInvitationEmail(ctx, invite, referrer);
}
