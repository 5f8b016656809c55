// Who may do what with invitations (the real server's zerver/views/invite.py checks): guests and
// bots manage none; an invitation as owner needs an owner, as administrator or moderator an
// administrator; someone else's invitation needs an administrator (an owner's, an owner).
import { ApiError, badRequest, insufficientPermission, mustBeAdmin } from '../../errors.js';
import { inviteKindId, type Store } from '../../store/store.js';
import { Role, type Invite, type User } from '../../store/state.js';
import type { Ctx } from '../context.js';
import { holdsSetting } from '../group-settings/membership.js';
import type { GroupSettingValue } from '../../store/state.js';
import { isAdmin, isOwner, requireHuman, requireNonGuest } from '../users/roles.js';

const mustBeOwner = () => new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
const noSuchInvitation = () => badRequest('No such invitation');

/** require_member_or_admin: guests first, then bots. */
export function requireMemberOrAdmin(actor: User): void {
  requireNonGuest(actor);
  requireHuman(actor);
}

/** Inviting as owner needs an owner; as administrator or moderator (or managing another's invitation) an administrator. */
export function checkRoleBasedPermissions(actor: User, invitedAs: number, requireAdmin: boolean): void {
  if (invitedAs === Role.owner && !isOwner(actor)) throw mustBeOwner();
  if (requireAdmin && !isAdmin(actor)) throw badRequest('Must be an organization administrator');
}

export const needsAdmin = (invitedAs: number) =>
  invitedAs === Role.owner || invitedAs === Role.administrator || invitedAs === Role.moderator;

/** A realm setting kept among the organization's shown settings (can_invite_users_group, create_multiuse_invite_group). */
function holdsShownSetting(store: Store, name: string, userId: number): boolean {
  const value = store.realm.shown_settings?.[name] as GroupSettingValue | undefined;
  return value !== undefined && holdsSetting(store, value, userId);
}

export function checkCanInviteByEmail(store: Store, actor: User): void {
  if (!holdsShownSetting(store, 'can_invite_users_group', actor.user_id)) throw insufficientPermission();
}

/** Reusable links: create_multiuse_invite_group from FL 209; before, administrators only (the real server's require_realm_admin). */
export function checkCanCreateLinks(ctx: Ctx): void {
  if (!ctx.supports('multiuse_invites_by_group')) {
    if (!isAdmin(ctx.actor)) throw mustBeAdmin();
    return;
  }
  if (!holdsShownSetting(ctx.store, 'create_multiuse_invite_group', ctx.actor.user_id)) throw insufficientPermission();
}

/** An email invitation still pending, that the caller may manage. */
export function emailInviteForUpdate(store: Store, actor: User, inviteId: number): Invite {
  const invite = store.invites.by('kindId', inviteKindId(false, inviteId));
  if (!invite || invite.status !== 'active') throw noSuchInvitation();
  if (invite.invited_by_user_id !== actor.user_id) checkRoleBasedPermissions(actor, invite.invited_as, true);
  return invite;
}

/** A reusable link that the caller may revoke (a revoked one is an error of its own). */
export function linkForUpdate(ctx: Ctx, inviteId: number): Invite {
  // Before FL 209 the administrators-only gate came first, before the link was looked up.
  if (!ctx.supports('multiuse_invites_by_group') && !isAdmin(ctx.actor)) throw mustBeAdmin();
  const invite = ctx.store.invites.by('kindId', inviteKindId(true, inviteId));
  if (!invite) throw noSuchInvitation();
  if (invite.invited_by_user_id !== ctx.actor.user_id) checkRoleBasedPermissions(ctx.actor, invite.invited_as, true);
  if (invite.status === 'revoked') throw badRequest('Invitation has already been revoked');
  return invite;
}
