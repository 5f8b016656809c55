// Missed-message emails (the real server's zerver/lib/email_notifications.py): a message that
// would notify an away user by email waits for the user's batching period
// (email_notifications_batching_period_seconds, two minutes by default) together with the
// user's other such messages; then one email per conversation tells of those still unread.
import type { Message, User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import type { WorldCtx } from '../context.js';
import { outboxOf, type OutboxContent } from './outbox.js';
import { pushContent } from './message-text.js';

const TAG = 'missed_message:';

/** The conversation a message belongs to, as the email groups them. */
function bucketOf(message: Message): string {
  return message.type === 'stream'
    ? `s${message.stream_id}:${message.topic.toLowerCase()}`
    : `d${message.recipient_ids.join(',')}`;
}

const hashPart = (text: string) => encodeURIComponent(text).replace(/\./g, '%2E').replace(/%/g, '.');

function narrowUrl(store: Store, message: Message): string {
  const base = `${store.realm.url}/#narrow`;
  if (message.type === 'stream') {
    const name = store.streams.get(message.stream_id!)?.name ?? '';
    return `${base}/channel/${message.stream_id}-${hashPart(name.replace(/ /g, '-'))}/topic/${hashPart(message.topic)}/near/${message.id}`;
  }
  return `${base}/dm/${message.recipient_ids.join(',')}/near/${message.id}`;
}

function subjectOf(store: Store, user: User, message: Message): string {
  const name = (id: number) => store.users.get(id)?.full_name ?? '';
  if (message.type === 'stream') return `#${store.streams.get(message.stream_id!)?.name ?? ''} > ${message.topic}`;
  if (message.recipient_ids.length > 2)
    return `Group DMs with ${message.recipient_ids
      .filter((id) => id !== user.user_id)
      .map(name)
      .join(', ')}`;
  return `DMs with ${name(message.sender_id)}`;
}

function emailFor(store: Store, user: User, messages: Message[]): OutboxContent {
  const lines = messages.map(
    (m) => `${store.users.get(m.sender_id)?.full_name ?? ''}: ${pushContent(m.rendered_content)}`,
  );
  const url = narrowUrl(store, messages[0]);
  return {
    kind: 'email',
    template: 'missed_message',
    to: user.delivery_email,
    user_id: user.user_id,
    subject: subjectOf(store, user, messages[0]),
    text: `${lines.join('\n\n')}\n\nView or reply in ${store.realm.name}: ${url}\n`,
    links: { narrow_url: url },
    message_ids: messages.map((m) => m.id),
  };
}

/** Queues the message for the user's next missed-message email. */
export function queueMissedMessageEmail(world: WorldCtx, user: User, message: Message): void {
  const outbox = outboxOf(world.store);
  const tag = `${TAG}${user.user_id}:${bucketOf(message)}`;
  const pending = outbox.pendingTagged(tag);
  if (pending?.content.kind === 'email') {
    pending.content.message_ids = [...(pending.content.message_ids ?? []), message.id];
    return;
  }
  const period = Number(user.settings.email_notifications_batching_period_seconds ?? 120) * 1000;
  // The user's batch is sent together: a conversation joining it waits for the same moment.
  const due = outbox.earliestDue((t) => t.startsWith(`${TAG}${user.user_id}:`)) ?? world.clock.nowMs() + period;
  outbox.schedule(emailFor(world.store, user, [message]), due, tag);
}

/** At sending time: only the messages still there and still unread, or nothing. */
export function stillUnread(world: WorldCtx, content: OutboxContent, tag: string | null): OutboxContent | null {
  if (!tag?.startsWith(TAG) || content.kind !== 'email' || content.user_id === null) return content;
  const { store } = world;
  const user = store.users.get(content.user_id);
  if (!user?.is_active) return null;
  const key = String(user.user_id);
  const messages = (content.message_ids ?? [])
    .map((id) => store.messages.get(id))
    .filter((m): m is Message => !!m && !!m.flags[key] && !m.flags[key].includes('read'));
  return messages.length ? emailFor(store, user, messages) : null;
}
