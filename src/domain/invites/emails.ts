// The invitation emails, into the world's outbox: the invitation itself and, for an invitation
// valid four days or more, its reminder two days before it expires (sent on the mock clock,
// forgotten when the invitation is revoked, used or sent again). Subjects are the real server's;
// the texts are the mock's own wording of the facts and links of its templates (invitation.txt,
// invitation_reminder.txt): who invites, their address, the link, and whom to ask for help.
import type { Invite, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { SUPPORT_EMAIL } from '../server-info.js';
import { outboxOf } from '../outbox/outbox.js';
import { inviteLink } from '../outbox/links.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The outbox tag of an invitation's pending reminder. */
const reminderTag = (invite: Invite) => `invitation_reminder:${invite.key}`;

export function sendInvitationEmail(world: WorldCtx, invite: Invite, referrer: User): void {
  const { store, clock } = world;
  const outbox = outboxOf(store);
  const realmName = store.realm.name;
  const link = inviteLink(store.realm.url, invite);
  const to = invite.email!;
  outbox.record(
    {
      kind: 'email',
      template: 'invitation',
      to,
      user_id: null,
      subject: `${referrer.full_name} has invited you to join ${realmName}`,
      text: `Hello,\n\n${referrer.full_name} (${referrer.delivery_email}) invites you to ${realmName}, their organization on Zulip, the team chat app.\n\nCreate your account with this link:\n    <${link}>\n\nQuestions, or stuck? Write to ${SUPPORT_EMAIL}.\n`,
      links: { activate_url: link },
    },
    clock.nowMs(),
  );
  const tag = reminderTag(invite);
  outbox.cancel(tag);
  const nowMs = clock.nowMs();
  if (invite.expiry_date === null || invite.expiry_date * 1000 - nowMs < 4 * DAY_MS) return;
  outbox.schedule(
    {
      kind: 'email',
      template: 'invitation_reminder',
      to,
      user_id: null,
      subject: `Reminder: Join ${referrer.full_name} at ${realmName}`,
      text: `Hello again,\n\n${referrer.full_name} (${referrer.delivery_email}) still invites you to ${realmName}, their organization on Zulip, the team chat app. The invitation is good for two more days.\n\nCreate your account with this link:\n    <${link}>\n\nQuestions, or stuck? Write to ${SUPPORT_EMAIL}.\n`,
      links: { activate_url: link },
    },
    invite.expiry_date * 1000 - 2 * DAY_MS,
    tag,
  );
}

/** A revoked or used invitation's reminder is not sent. */
export function cancelInvitationReminder(world: WorldCtx, invite: Invite): void {
  outboxOf(world.store).cancel(reminderTag(invite));
}
