// What one queue sees of an event: the parts of an event that depend on how the queue was
// registered rather than on who receives it.
//  - Clients without the empty_topic_name capability get the empty topic as the organization's
//    display name for it ("general chat"), as the real server does.
//  - Message events may be published with both `content` (Markdown) and `rendered_content`
//    (HTML); the queue gets the one its apply_markdown asked for, with the matching content_type.
//  - client_gravatar queues compute Gravatar URLs themselves: the sender's avatar_url is null.
//  - Clients without the bulk_message_deletion capability get one delete_message event per
//    message, with `message_id`, instead of one with `message_ids`.
import type { Event, EventQueue } from './queue.js';

type Obj = Record<string, unknown>;

/** Fields that carry a topic name, per event type (and, for messages, inside `message`). */
const TOPIC_FIELDS: Record<string, string[]> = {
  user_topic: ['topic_name'],
  typing: ['topic'],
  update_message: ['topic', 'subject', 'orig_subject'],
  delete_message: ['topic'],
};

/** Every event the queue gets for `event` (more than one only for split bulk deletions). */
export function presentAll(queue: EventQueue, event: Event): Event[] {
  if (event.type === 'delete_message' && Array.isArray(event.message_ids) && !queue.options.capabilities.bulk_message_deletion) {
    const { message_ids: ids, ...rest } = event;
    return (ids as unknown[]).map((id) => presentFor(queue, { ...rest, message_id: id } as Event));
  }
  // As in register: clients without linkifier_url_template would misread templates, so they get none.
  if (event.type === 'realm_linkifiers' && !queue.options.capabilities.linkifier_url_template) return [{ ...event, realm_linkifiers: [] }];
  return [presentFor(queue, event)];
}

function presentFor(queue: EventQueue, event: Event): Event {
  const out = structuredClone(event);
  const displayName = queue.options.capabilities.empty_topic_name ? null : queue.options.emptyTopicDisplayName;
  if (out.type === 'message' && isObj(out.message)) {
    // Direct messages have no topic: their empty subject stays as it is.
    if (displayName !== null && out.message.type === 'stream') renameEmpty(out.message, ['subject', 'topic'], displayName);
    chooseContent(out.message, queue.options.applyMarkdown);
    if (queue.options.clientGravatar && isGravatar(out.message.avatar_url)) out.message.avatar_url = null;
  } else if (displayName !== null) {
    renameEmpty(out, TOPIC_FIELDS[String(out.type)] ?? [], displayName);
    if (out.type === 'typing_edit_message' && isObj(out.recipient)) renameEmpty(out.recipient, ['topic'], displayName);
    if (out.type === 'scheduled_messages') {
      for (const sm of listOf(out.scheduled_messages)) renameEmpty(sm, ['topic'], displayName);
      if (isObj(out.scheduled_message)) renameEmpty(out.scheduled_message, ['topic'], displayName);
    }
  }
  return out;
}

/** The empty topic shown by its display name, for clients that do not handle "". */
export function renameEmpty(obj: Obj, fields: string[], displayName: string): void {
  for (const f of fields) if (obj[f] === '') obj[f] = displayName;
}

function chooseContent(message: Obj, applyMarkdown: boolean): void {
  if (!('rendered_content' in message)) return;
  if (applyMarkdown) message.content = message.rendered_content;
  message.content_type = applyMarkdown ? 'text/html' : 'text/x-markdown';
  delete message.rendered_content;
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
