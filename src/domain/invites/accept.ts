// Accepting an invitation: what the real server's registration page does once the invitee
// follows the link (zerver/views/registration.py, zerver/actions/create_user.py). The account is
// created with the invitation's role, channels (and the default channels when it says so) and
// groups; the email invitation is used up and the address's other pending invitations revoked;
// the inviter gets the notification bot's direct message when they asked for it, the signup
// announcements channel is told, and the welcome bot greets the new
// account (realm/welcome-bot.ts). Reached through the control API (POST /__mock/invites/accept).
import { badRequest } from '../../errors.js';
import type { Ctx, WorldCtx } from '../context.js';
import { Role, type Invite, type User } from '../../store/state.js';
import { addSubscriptions } from '../channels/add-subscriptions.js';
import { publishGroupEvent } from '../groups/settings.js';
import { sendNotificationBotMessage } from '../messages/send.js';
import { emailInUse, insertAccount, newHumanRow } from '../users/create-user.js';
import { checkFullName, isValidEmail } from '../users/settings-values.js';
import { isStrongPassword } from '../users/password-strength.js';
import type { ServerRules } from '../server-rules.js';
import { keyOfLink } from '../outbox/links.js';
import { silentMention } from '../render/mentions.js';
import { isPending } from './manage.js';
import { cancelInvitationReminder } from './emails.js';
import { drawsNewAvatars, withDrawnAvatar } from '../users/generated-avatar.js';
import { notifyInvitesChanged } from './notify.js';
import { sendInitialDirectMessages } from '../realm/welcome-bot.js';

export interface AcceptInput {
  /** The link of the invitation email or the reusable link (or its key alone). */
  link: string;
  full_name: string;
  password: string;
  /** A reusable link's new address; an email invitation's own address is used otherwise. */
  email?: string;
  /** The server's password rules (development or production, server-rules.ts). */
  rules: ServerRules;
  /** Whether the level the account is made at has default_avatar_source (FL 456), which then decides its avatar. */
  levelHasDefaultAvatarSource: boolean;
  /** Whether the level the account is made at has the welcome bot's custom text (FL 416). */
  levelHasWelcomeCustomText: boolean;
}

/**
 * Refusals of the control API's accept call (described in openapi/control.yaml, not in the API's
 * description: no API operation answers them). The wording is the registration page's.
 */
const refused = (msg: string) => badRequest(msg);
const expiredOrUsed = () => refused('The confirmation link has expired or been deactivated.');

export function acceptInvitation(
  world: WorldCtx,
  input: AcceptInput,
): { user_id: number; email: string; api_key: string } {
  const { store } = world;
  const invite = store.invites.get(keyOfLink(input.link));
  if (!invite) throw refused('No such invitation');
  if (!isPending(invite, world.clock.now())) throw expiredOrUsed();
  const email = (invite.is_multiuse ? input.email : invite.email)?.trim();
  if (!email) throw refused("A reusable invitation link needs the new account's email");
  if (!isValidEmail(email)) throw refused('Invalid address.');
  const lower = email.toLowerCase();
  if (emailInUse(store, email)) throw refused('Already has an account.');
  const fullName = checkFullName(input.full_name);
  if (!isStrongPassword(input.password, input.rules)) throw refused('The password is too weak.');

  let row = newHumanRow(world, {
    email,
    fullName,
    password: input.password,
    role: invite.invited_as as User['role'],
  });
  if (drawsNewAvatars(store, input.levelHasDefaultAvatarSource)) row = withDrawnAvatar(store, row);
  // The new account acts for itself from here on (its own events, its subscriptions).
  const ctx = { ...world, actor: row } as unknown as Ctx;
  const user = insertAccount(ctx, row);
  ctx.actor = user;
  joinInvitedGroups(world, invite, user);
  const streamIds = [
    ...invite.stream_ids,
    ...(invite.include_realm_default_subscriptions ? store.realm.default_stream_ids : []),
  ];
  for (const streamId of [...new Set(streamIds)]) {
    const stream = store.streams.get(streamId);
    if (stream && !stream.is_archived) addSubscriptions(ctx, stream, [user.user_id]);
  }
  useUpInvitations(world, invite, lower);
  tellOthers(world, invite, user);
  sendInitialDirectMessages(world, user, {
    levelHasCustomText: input.levelHasWelcomeCustomText,
    invitationText: invite.welcome_message_custom_text,
  });
  return { user_id: user.user_id, email, api_key: user.api_key };
}

function joinInvitedGroups(world: WorldCtx, invite: Invite, user: User): void {
  for (const groupId of invite.group_ids) {
    const group = world.store.userGroups.get(groupId);
    if (!group || group.direct_members.includes(user.user_id)) continue;
    world.store.userGroups.update(group, { direct_members: [...group.direct_members, user.user_id] });
    publishGroupEvent(world, { type: 'user_group', op: 'add_members', group_id: group.id, user_ids: [user.user_id] });
  }
}

/** The email invitation is used; the address's other pending email invitations are revoked. */
function useUpInvitations(world: WorldCtx, invite: Invite, lowerEmail: string): void {
  const { store } = world;
  const referrers = new Set<number>();
  for (const other of store.invites.filter(
    (i) => !i.is_multiuse && i.status === 'active' && i.email!.toLowerCase() === lowerEmail,
  )) {
    store.invites.update(other, { status: other.key === invite.key ? 'used' : 'revoked' });
    cancelInvitationReminder(world, other);
    referrers.add(other.invited_by_user_id);
  }
  for (const id of referrers) notifyInvitesChanged(world, id, true);
}

function tellOthers(world: WorldCtx, invite: Invite, user: User): void {
  const { store } = world;
  const referrer = store.users.get(invite.invited_by_user_id);
  if (!invite.is_multiuse && invite.notify_referrer_on_join && referrer?.is_active) {
    sendNotificationBotMessage(world, {
      type: 'private',
      to: [referrer.user_id],
      content: `${silentMention(user)} accepted your invitation to join Zulip!`,
    });
  }
  const channelId = store.realm.signup_announcements_stream_id;
  const channel = channelId === null ? undefined : store.streams.get(channelId);
  if (channel && !channel.is_archived && user.role !== Role.guest) {
    sendNotificationBotMessage(world, {
      type: 'stream',
      to: channel.stream_id,
      topic: 'signups',
      content: `${silentMention(user)} joined this organization.`,
    });
  }
}
