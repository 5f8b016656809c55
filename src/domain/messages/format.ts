// A message as the API shows it (the `message` of a message event, and later GET /messages):
// both `content` and `rendered_content` are included; the event queue keeps the one its client
// asked for (apply_markdown) and sets content_type.
import type { Store } from '../../store/store.js';
import type { Message } from '../../store/state.js';
import { avatarUrl } from '../users/avatar.js';
import { topicLinks } from '../render/linkifiers.js';
import { organizationDisplayEmail } from '../users/email-visibility.js';

/**
 * The state keeps no recipient table, so recipient IDs are derived: a channel's is its channel
 * ID, a one-to-one conversation's is 100000 + the receiving user's ID, a group conversation's is
 * 1000000 + a number computed from its participants.
 */
function recipientId(message: Message): number {
  if (message.type === 'stream') return message.stream_id!;
  const others = message.recipient_ids.filter((id) => id !== message.sender_id);
  if (others.length <= 1) return personalRecipientId(others[0] ?? message.sender_id);
  let hash = 0;
  for (const ch of message.recipient_ids.join(',')) hash = (hash * 31 + ch.charCodeAt(0)) % 1000000;
  return 1000000 + hash;
}

/** A user's own recipient ID (that of one-to-one messages to them). */
export const personalRecipientId = (userId: number) => 100000 + userId;

function displayRecipient(store: Store, message: Message): unknown {
  if (message.type === 'stream') return store.streams.get(message.stream_id!)?.name ?? '';
  return message.recipient_ids.map((id) => {
    const u = store.users.get(id);
    return { id, email: u?.email ?? '', full_name: u?.full_name ?? '', is_mirror_dummy: false };
  });
}

export function messageDict(store: Store, message: Message): Record<string, unknown> {
  const sender = store.users.get(message.sender_id)!;
  return {
    id: message.id,
    sender_id: sender.user_id,
    sender_full_name: sender.full_name,
    sender_email: sender.email,
    // The state keeps no subdomain: the organization is the server's root one.
    sender_realm_str: '',
    avatar_url: avatarUrl(sender),
    type: message.type,
    ...(message.type === 'stream' ? { stream_id: message.stream_id } : {}),
    recipient_id: recipientId(message),
    display_recipient: displayRecipient(store, message),
    subject: message.topic,
    topic_links: message.type === 'stream' ? topicLinks(store, message.topic) : [],
    content: message.content,
    rendered_content: message.rendered_content,
    timestamp: message.timestamp,
    client: message.client,
    is_me_message: /^\/me( |$)/.test(message.content),
    reactions: message.reactions.map((r) => {
      const u = store.users.get(r.user_id);
      return { ...r, user: { id: r.user_id, email: u?.email ?? '', full_name: u?.full_name ?? '' } };
    }),
    submessages: [],
    ...(message.last_edit_timestamp !== null ? { last_edit_timestamp: message.last_edit_timestamp } : {}),
  };
}

// Before feature level 163 the organization's email_address_visibility decided every person's API
// email (users/email-visibility.ts), in message objects too: the sender's `sender_email`, the
// `email` of each direct-message recipient in `display_recipient` and of each reaction's `user`.
// One rewrite of a message dict (as messageDict makes it) serves the read endpoints and the
// `message` events of queues registered below 163.
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
