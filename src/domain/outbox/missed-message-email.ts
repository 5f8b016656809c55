// Missed-message emails (the real server's zerver/lib/email_notifications.py): a message that
// would notify an away user by email waits for the user's batching period
// (email_notifications_batching_period_seconds, two minutes by default) together with the
// user's other such messages; then one email per conversation tells of those still unread.
// Subjects are the real server's; the text is the mock's own wording of the facts and links of
// its templates/zerver/emails/missed_message.txt: the messages (or why they are left out), why
// the user gets the email, where to reply, and where to change email notifications.
import type { Message, User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import type { WorldCtx } from '../context.js';
import { RESOLVED_TOPIC_PREFIX } from '../messages/topics.js';
import { outboxOf, type LazyEmail, type OutboxContent } from './outbox.js';
import { pushContent } from './message-text.js';
import { firstReasonsAt, missedBatchesOf, type Batch, type EmailReason } from './missed-batches.js';

/**
 * The messages of each pending email, beside it (the recorded email is written at release from
 * them). Keyed by the pending content, so a world's reset forgets them.
 */
const BATCHES = new WeakMap<OutboxContent, Batch>();

const TAG = 'missed_message:';

/** The real server's email without a gateway for replies says so and links to the gateway's docs. */
const EMAIL_GATEWAY_HELP = 'https://zulip.readthedocs.io/en/latest/production/email-gateway.html';

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

/** Whether the organization and the user let message content into emails, and if not, who did not. */
function contentHiddenBy(store: Store, user: User): 'realm' | 'user' | null {
  if (store.realm.shown_settings?.message_content_allowed_in_email_notifications === false) return 'realm';
  if (user.settings.message_content_in_email_notifications === false) return 'user';
  return null;
}

function subjectOf(store: Store, user: User, message: Message): string {
  if (contentHiddenBy(store, user)) return 'New messages';
  const name = (id: number) => store.users.get(id)?.full_name ?? '';
  if (message.type === 'stream') {
    const channel = `#${store.streams.get(message.stream_id!)?.name ?? ''}`;
    // A resolved topic keeps its thread: the prefix moves out of the topic into a bracket.
    if (message.topic.startsWith(RESOLVED_TOPIC_PREFIX))
      return `[resolved] ${channel} > ${message.topic.slice(RESOLVED_TOPIC_PREFIX.length)}`;
    return `${channel} > ${message.topic}`;
  }
  if (message.recipient_ids.length > 2)
    return `Group DMs with ${message.recipient_ids
      .filter((id) => id !== user.user_id)
      .map(name)
      .join(', ')}`;
  return `DMs with ${name(message.sender_id)}`;
}

/** The order in which the real template picks the one reason it gives. */
const REASON_ORDER = [
  'personal',
  'group',
  'topic_wildcard_mentioned_in_followed_topic',
  'stream_wildcard_mentioned_in_followed_topic',
  'topic_wildcard_mentioned',
  'stream_wildcard_mentioned',
  'followed_topic_email_notify',
  'stream_email_notify',
];

/** The sentence saying why the email was sent (none for direct messages), in the mock's words. */
function reasonLine(store: Store, message: Message, reasons: EmailReason[]): string | null {
  const kinds = reasons.map((r) => (r.trigger === 'mentioned' ? (r.group === null ? 'personal' : 'group') : r.trigger));
  const kind = REASON_ORDER.find((k) => kinds.includes(k));
  const channel = `#${store.streams.get(message.stream_id ?? -1)?.name ?? ''}`;
  switch (kind) {
    case 'personal':
      return 'You were sent this email because someone mentioned you by name.';
    case 'group':
      return `You were sent this email because someone mentioned @${reasons.find((r) => r.group !== null)!.group}.`;
    case 'topic_wildcard_mentioned_in_followed_topic':
    case 'topic_wildcard_mentioned':
      return `You were sent this email because someone mentioned every participant of ${channel} > ${message.topic}.`;
    case 'stream_wildcard_mentioned_in_followed_topic':
      return 'You were sent this email because wildcard mentions in the topics you follow notify you.';
    case 'stream_wildcard_mentioned':
      return `You were sent this email because someone mentioned everyone in ${channel}.`;
    case 'followed_topic_email_notify':
      return 'You were sent this email because the topics you follow notify you by email.';
    case 'stream_email_notify':
      return `You were sent this email because ${channel} notifies you by email.`;
    default:
      return null;
  }
}

/** What an email's message lines are written from: each message's sender and HTML, as they were. */
type MessageLines = Array<{ sender: string; html: string }>;

/**
 * The email about the messages `ids` (`first` the first of them), all but its text, and the text
 * written from `lines` when asked.
 */
function emailParts(
  store: Store,
  user: User,
  first: Message,
  ids: number[],
  reasons: EmailReason[],
): { head: Omit<OutboxContent & { kind: 'email' }, 'text'>; text: (lines: MessageLines) => string } {
  const realm = store.realm;
  const url = narrowUrl(store, first);
  const settingsUrl = `${realm.url}/#settings/notifications`;
  const hiddenBy = contentHiddenBy(store, user);
  const reason = reasonLine(store, first, reasons);
  const realmName = realm.name;
  const realmUrl = realm.url;
  const text = (lines: MessageLines): string => {
    const parts: string[] = [];
    if (!hiddenBy) {
      parts.push(lines.map((l) => `${l.sender}: ${pushContent(l.html)}`).join('\n\n'));
    } else if (hiddenBy === 'realm') {
      parts.push(
        `The messages are left out: your organization keeps message content out of email notifications (${realmUrl}/help/hide-message-content-in-emails).`,
      );
    } else {
      parts.push(
        `The messages are left out: you chose to keep message content out of email notifications (${realmUrl}/help/dm-mention-alert-notifications).`,
      );
    }
    parts.push(reason ? `--\n${reason}` : '--');
    if (hiddenBy) {
      parts.push(`To read and answer them, open ${realmName}:\n${url}`);
    } else {
      parts.push(
        `To answer, open ${realmName}:\n${url}\n\nReplies to this email go nowhere: this server takes no email replies (${EMAIL_GATEWAY_HELP}).`,
      );
    }
    parts.push(`Change which emails you get:\n${settingsUrl}`);
    return `${parts.join('\n\n')}\n`;
  };
  return {
    head: {
      kind: 'email',
      template: 'missed_message',
      to: user.delivery_email,
      user_id: user.user_id,
      subject: subjectOf(store, user, first),
      links: { narrow_url: url, settings_url: settingsUrl },
      message_ids: ids,
    },
    text,
  };
}

/** The first email of a batch, as it is scheduled (written anew at release from the batch). */
function emailFor(store: Store, user: User, message: Message, batch: Batch): OutboxContent {
  // Its message_ids are the batch's own list, which grows as the batch gathers.
  const { head, text } = emailParts(store, user, message, batch.ids, batch.firstReasons);
  const sender = store.users.get(message.sender_id)?.full_name ?? '';
  return { ...head, text: text([{ sender, html: message.rendered_content }]) };
}

/** Queues the message, sent at `sentMs`, for the user's next missed-message email, with why it notified the user. */
export function queueMissedMessageEmail(
  world: WorldCtx,
  user: User,
  message: Message,
  reason: EmailReason,
  sentMs: number,
): void {
  const outbox = outboxOf(world.store);
  const batches = missedBatchesOf(world.store);
  const tag = `${TAG}${user.user_id}:${bucketOf(message)}`;
  const pending = outbox.pendingTagged(tag);
  const gathering = pending && BATCHES.get(pending.content);
  if (gathering) {
    // In place: a batch may gather thousands of messages, and copying it for each would grow as their square.
    batches.add(gathering, message, reason);
    return;
  }
  const period = Number(user.settings.email_notifications_batching_period_seconds ?? 120) * 1000;
  // The user's batch is sent together: a conversation joining it waits for the same moment.
  const group = `${TAG}${user.user_id}`;
  const due = outbox.earliestDue(group) ?? sentMs + period;
  const batch = batches.start(user.user_id);
  batches.add(batch, message, reason);
  const content = emailFor(world.store, user, message, batch);
  BATCHES.set(content, batch);
  outbox.schedule(content, due, tag, group, () => batches.close(batch));
}

/**
 * At sending time: only the messages still there and still unread, or nothing. The batch knows
 * which those are (see missed-batches.ts): no message is looked up again, however many there are.
 */
export function stillUnread(
  world: WorldCtx,
  content: OutboxContent,
  tag: string | null,
): OutboxContent | LazyEmail | null {
  if (!tag?.startsWith(TAG) || content.kind !== 'email' || content.user_id === null) return content;
  const { store } = world;
  const user = store.users.get(content.user_id);
  const batch = BATCHES.get(content);
  if (!user?.is_active || !batch) return null;
  const names = new Map<number, string>();
  let estimate = 600;
  for (const [senderId, count] of batch.senders) {
    const name = store.users.get(senderId)?.full_name ?? '';
    names.set(senderId, name);
    estimate += count * (name.length + 4);
  }
  // The batch has left the schedule: nothing changes its arrays any more, so the email may keep them.
  let { ids, senderIds, htmls } = batch;
  let reasons = batch.firstReasons;
  if (batch.gone.size) {
    const kept: number[] = [];
    for (let i = 0; i < batch.ids.length; i++) if (!batch.gone.has(batch.ids[i])) kept.push(i);
    if (!kept.length) return null;
    ids = kept.map((i) => batch.ids[i]);
    senderIds = kept.map((i) => batch.senderIds[i]);
    htmls = kept.map((i) => batch.htmls[i]);
    reasons = firstReasonsAt(batch, kept);
    estimate = 600;
    for (let i = 0; i < ids.length; i++) estimate += names.get(senderIds[i])!.length + htmls[i].length + 4;
  } else estimate += batch.htmlChars;
  const first = store.messages.get(ids[0]);
  if (!first) return null;
  // Written when first read, from what the messages said at release: a batch can gather thousands.
  const { head, text } = emailParts(store, user, first, ids, reasons);
  return {
    head,
    build: () => ({ text: text(ids.map((_, i) => ({ sender: names.get(senderIds[i])!, html: htmls[i] }))) }),
    estimate,
  };
}
