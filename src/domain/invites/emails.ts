// The invitation emails, into the world's outbox: the invitation itself and, for an invitation
// valid four days or more, its reminder two days before it expires (sent on the mock clock,
// forgotten when the invitation is revoked, used or sent again). Subjects are the real server's.
import type { Invite, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
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
      text: `Hi there,\n\n${referrer.full_name} (${referrer.delivery_email}) wants you to join them on ${realmName}.\n\nTo get started, follow this link:\n    <${link}>\n`,
      links: { activate_url: link },
    },
    clock.nowMs(),
  );
  const tag = reminderTag(invite);
  outbox.cancel((t) => t === tag);
  const nowMs = clock.nowMs();
  if (invite.expiry_date === null || invite.expiry_date * 1000 - nowMs < 4 * DAY_MS) return;
  outbox.schedule(
    {
      kind: 'email',
      template: 'invitation_reminder',
      to,
      user_id: null,
      subject: `Reminder: Join ${referrer.full_name} at ${realmName}`,
      text: `Hi again,\n\nThis is a reminder that ${referrer.full_name} (${referrer.delivery_email}) invited you to join ${realmName}.\nThis invitation expires in two days. If the invitation expires, you'll need to ask ${referrer.full_name} for another one.\n\n    <${link}>\n`,
      links: { activate_url: link },
    },
    invite.expiry_date * 1000 - 2 * DAY_MS,
    tag,
  );
}

/** A revoked or used invitation's reminder is not sent. */
export function cancelInvitationReminder(world: WorldCtx, invite: Invite): void {
  const tag = reminderTag(invite);
  outboxOf(world.store).cancel((t) => t === tag);
}
