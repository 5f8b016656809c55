// What one queue sees of an event: the parts of an event that depend on how the queue was
// registered rather than on who receives it.
//  - Clients without the empty_topic_name capability get the empty topic as the organization's
//    display name for it ("general chat"), as the real server does.
//  - Message events may be published with both `content` (Markdown) and `rendered_content`
//    (HTML); the queue gets the one its apply_markdown asked for, with the matching content_type.
//  - client_gravatar queues compute Gravatar URLs themselves: the sender's avatar_url is null,
//    for senders who show their address to everyone (the others' URLs cannot be computed); below
//    feature level 163 for every sender (register turned client_gravatar off while the
//    organization hid addresses).
//  - Below feature level 163 a message's addresses are as the organization's setting shows them
//    (messages/format.ts, withOrganizationEmails), one copy per event shared by every such queue.
//  - Clients without the bulk_message_deletion capability get one delete_message event per
//    message, with `message_id`, instead of one with `message_ids`.
import type { Event, EventQueue } from './queue.js';
import type { Store } from '../../store/store.js';
import { renameEmpty } from '../messages/empty-topic.js';
import { EmailVisibility, emailVisibilityOf } from '../users/email-visibility.js';
import { withOrganizationEmails } from '../messages/format.js';

type Obj = Record<string, unknown>;

/** Fields that carry a topic name, per event type (and, for messages, inside `message`). */
const TOPIC_FIELDS: Record<string, string[]> = {
  user_topic: ['topic_name'],
  typing: ['topic'],
  update_message: ['topic', 'subject', 'orig_subject'],
  delete_message: ['topic'],
};

/** The other event types that can carry a topic name, which a queue may need renamed. */
const NAMES_A_TOPIC = new Set([
  ...Object.keys(TOPIC_FIELDS),
  'typing_edit_message',
  'muted_topics',
  'scheduled_messages',
]);

/** Every event the queue gets for `event` (more than one only for split bulk deletions). */
export function presentAll(queue: EventQueue, event: Event, store: Store | null): Event[] {
  if (
    event.type === 'delete_message' &&
    Array.isArray(event.message_ids) &&
    !queue.options.capabilities.bulk_message_deletion
  ) {
    const { message_ids: ids, ...rest } = event;
    return (ids as unknown[]).map((id) => presentFor(queue, { ...rest, message_id: id } as Event, store));
  }
  // As in register: clients without linkifier_url_template would misread templates, so they get none.
  if (event.type === 'realm_linkifiers' && !queue.options.capabilities.linkifier_url_template)
    return [{ ...event, realm_linkifiers: [] }];
  return [presentFor(queue, event, store)];
}

/**
 * The event as the queue sees it. Events are shared and never changed once published: a queue
 * that sees an event as published holds that very object, and a queue that needs its own variant
 * gets a copy of only the parts that differ (thousands of queues must not each copy every message).
 */
function presentFor(queue: EventQueue, event: Event, store: Store | null): Event {
  const displayName = queue.options.capabilities.empty_topic_name ? null : queue.options.emptyTopicDisplayName;
  if (event.type === 'message' && isObj(event.message)) {
    const original = event.message;
    // Queues registered alike see the same variant: one per message and kind of queue, made for
    // the first such queue, however many it goes to (a user may hold up to a thousand).
    const kind = kindOf(queue, store);
    let variants = MESSAGE_VARIANTS.get(original);
    if (!variants) MESSAGE_VARIANTS.set(original, (variants = new Map()));
    let message = variants.get(kind);
    if (!message) variants.set(kind, (message = variantFor(queue, original, store, displayName)));
    if (message === original) return event;
    // A spread alone, then the key it already has: `{ ...event, message }` takes V8's slow path.
    const out = { ...event };
    out.message = message;
    return out;
  }
  if (displayName === null || !NAMES_A_TOPIC.has(String(event.type))) return event;
  // Other events are small; a client without the empty_topic_name capability gets its own copy.
  const out = structuredClone(event);
  renameEmpty(out, TOPIC_FIELDS[String(out.type)] ?? [], displayName);
  if (out.type === 'typing_edit_message' && isObj(out.recipient)) renameEmpty(out.recipient, ['topic'], displayName);
  if (out.type === 'muted_topics' && Array.isArray(out.muted_topics)) {
    for (const entry of out.muted_topics) if (Array.isArray(entry) && entry[1] === '') entry[1] = displayName;
  }
  if (out.type === 'scheduled_messages') {
    for (const sm of listOf(out.scheduled_messages)) renameEmpty(sm, ['topic'], displayName);
    if (isObj(out.scheduled_message)) renameEmpty(out.scheduled_message, ['topic'], displayName);
  }
  return out;
}

/** The published message as queues of this kind see it (the message itself when nothing differs). */
function variantFor(queue: EventQueue, original: Obj, store: Store | null, displayName: string | null): Obj {
  // Direct messages have no topic: their empty subject stays as it is.
  const rename =
    displayName !== null && original.type === 'stream' && (original.subject === '' || original.topic === '');
  const choose = 'rendered_content' in original;
  const organization = isOrganizationQueue(queue, store);
  const gravatar =
    queue.options.clientGravatar &&
    isGravatar(original.avatar_url) &&
    (organization || showsAddress(store, original.sender_id));
  if (!rename && !choose && !gravatar && !organization) return original;
  const message = withContentChosen(
    organization ? organizationVariant(store!, original) : original,
    choose ? queue.options.applyMarkdown : null,
  );
  if (rename) renameEmpty(message, ['subject', 'topic'], displayName!);
  if (gravatar) message.avatar_url = null;
  return message;
}

/** Below feature level 163 a queue sees the organization's addresses. */
function isOrganizationQueue(queue: EventQueue, store: Store | null): boolean {
  return store !== null && queue.options.supports?.('email_visibility_per_user') === false;
}

/**
 * What decides a queue's variant of a message, as one string: queues whose options give the same
 * string see the same variant. Kept per queue (its options never change once registered).
 */
const KINDS = new WeakMap<object, string>();
function kindOf(queue: EventQueue, store: Store | null): string {
  let kind = KINDS.get(queue.options);
  if (kind === undefined) {
    const { options } = queue;
    const displayName = options.capabilities.empty_topic_name ? '' : `r${options.emptyTopicDisplayName}`;
    kind = `${isOrganizationQueue(queue, store) ? 'o' : ''}${options.clientGravatar ? 'g' : ''}${options.applyMarkdown ? 'h' : 'm'}${displayName}`;
    KINDS.set(options, kind);
  }
  return kind;
}

/** The published message with the organization's addresses, made once per message for every queue below 163. */
const ORGANIZATION_VARIANTS = new WeakMap<Obj, Obj>();
function organizationVariant(store: Store, original: Obj): Obj {
  let variant = ORGANIZATION_VARIANTS.get(original);
  if (!variant) ORGANIZATION_VARIANTS.set(original, (variant = withOrganizationEmails(store, original)));
  return variant;
}

/** The variants of each published message made so far, by the kind of queue they are for. */
const MESSAGE_VARIANTS = new WeakMap<Obj, Map<string, Obj>>();

/**
 * A copy of `message` with the content a queue asked for (`markdown`: its apply_markdown; null
 * to keep both). Copied key by key rather than deleting `rendered_content` from a spread: a
 * delete turns the object into a slow dictionary, for this step and every later serialisation.
 */
function withContentChosen(message: Obj, markdown: boolean | null): Obj {
  const out: Obj = {};
  for (const k of Object.keys(message)) if (markdown === null || k !== 'rendered_content') out[k] = message[k];
  if (markdown === null) return out;
  if (markdown) out.content = message.rendered_content;
  out.content_type = markdown ? 'text/html' : 'text/x-markdown';
  return out;
}

/** Whether the sender shows their address to everyone (a world without a store: assumed so). */
function showsAddress(store: Store | null, senderId: unknown): boolean {
  const sender = store && typeof senderId === 'number' ? store.users.get(senderId) : undefined;
  return !sender || emailVisibilityOf(sender) === EmailVisibility.everyone;
}

function isGravatar(url: unknown): boolean {
  return typeof url === 'string' && url.startsWith('https://secure.gravatar.com/');
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function listOf(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObj) : [];
}
