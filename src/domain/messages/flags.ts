// POST /messages/flags: a user's personal flags on messages. Only read, starred and collapsed (and
// hide_link_previews, from 510) can be changed; the others are set by the server. Messages the user can read but never received
// behave as if flagged read + historical; changing another flag on them gives them their own row.
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { subscriptionKey } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { canSeeMessage } from './access.js';

const EDITABLE = new Set(['read', 'starred', 'collapsed']);
/** Editable from 510 (behaviour hide_link_previews_flag); before, an unknown flag. */
const HIDE_LINK_PREVIEWS = 'hide_link_previews';
const SERVER_SET = new Set([
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'has_alert_word',
  'historical',
]);
const HISTORICAL = ['read', 'historical'];
const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'group_mentioned'];

/** What clients need to put messages back into their unread counts (FL 121). */
function unreadDetails(store: Store, user: User, messages: Message[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const m of messages) {
    const details: Record<string, unknown> =
      m.type === 'stream'
        ? {
            type: 'stream',
            stream_id: m.stream_id,
            topic: m.topic,
            unmuted_stream_msg: !store.subscriptions.get(subscriptionKey(user.user_id, m.stream_id!))?.is_muted,
          }
        : { type: 'private', user_ids: m.recipient_ids.filter((id) => id !== user.user_id) };
    if ((m.flags[String(user.user_id)] ?? []).some((f) => MENTION_FLAGS.includes(f))) details.mentioned = true;
    out[String(m.id)] = details;
  }
  return out;
}

export interface FlagChange {
  messages: number[];
  op: 'add' | 'remove';
  flag: string;
  /** The request's level knows the hide_link_previews flag (510). */
  hideLinkPreviewsFlag: boolean;
}

export interface FlagOutcome {
  /** How many messages actually changed. */
  count: number;
  /** Marking unread: the channels whose messages were skipped (the user is not subscribed). */
  ignoredChannels?: number[];
}

export function updateMessageFlags(
  { store, events }: WorldCtx,
  user: User,
  { messages: ids, op, flag, hideLinkPreviewsFlag }: FlagChange,
): FlagOutcome {
  const editable = EDITABLE.has(flag) || (hideLinkPreviewsFlag && flag === HIDE_LINK_PREVIEWS);
  if (!editable && !SERVER_SET.has(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (!editable) throw badRequest(`Flag not editable: '${flag}'`);
  const adding = op === 'add';
  const key = String(user.user_id);
  let wanted = [...new Set(ids)];
  let ignoredChannels: number[] | undefined;
  if (flag === 'read' && !adding) {
    // Unread channel messages must be in channels the user is subscribed to.
    const ignored = new Set<number>();
    wanted = wanted.filter((id) => {
      const m = store.messages.get(id);
      const keep = !m || m.type !== 'stream' || store.subscriptions.has(subscriptionKey(user.user_id, m.stream_id!));
      if (!keep) ignored.add(m!.stream_id!);
      return keep;
    });
    ignoredChannels = [...ignored].sort((a, b) => a - b);
  }
  const current = (id: number) => {
    const m = store.messages.get(id);
    return m && key in m.flags ? m.flags[key] : HISTORICAL;
  };
  const changing = wanted.filter((id) => current(id).includes(flag) !== adding);
  const rows: Message[] = [];
  for (const id of changing) {
    const m = store.messages.get(id);
    // A message without a row of the user's needs one: it must exist and be readable.
    if (!m || (!(key in m.flags) && !canSeeMessage(store, user, m))) throw badRequest('Invalid message(s)');
    rows.push(m);
  }
  for (const m of rows) {
    const before = current(m.id);
    const after = adding ? [...before, flag] : before.filter((f) => f !== flag);
    store.messages.update(m, { flags: { ...m.flags, [key]: after } });
  }
  const event: Record<string, unknown> = {
    type: 'update_message_flags',
    op,
    operation: op,
    flag,
    messages: changing,
    all: false,
  };
  if (flag === 'read' && !adding) event.message_details = unreadDetails(store, user, rows);
  events.publish([user.user_id], event);
  return { count: changing.length, ...(ignoredChannels ? { ignoredChannels } : {}) };
}
