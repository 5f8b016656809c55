// Where a narrow's window is looked for: the shortest list, kept in ID order by the store, that
// holds every message the narrow can match (a channel's, a topic's, a conversation's or a
// sender's messages, or the user's own). The window is then walked in that list exactly as it
// would be in every message stored (the narrow's own test still decides each message), so the
// answer is the same and its cost follows those messages, not the whole store (a channel's 100
// newest messages after 10,000 direct messages elsewhere).
import type { Store } from '../../store/store.js';
import {
  channelMessages,
  conversationMessages,
  receivedMessages,
  sentMessages,
  starredMessages,
  topicMessagesInOrder,
  unreadMessages,
} from '../../store/store.js';
import type { Message, Stream, User } from '../../store/state.js';
import { conversationKey, userByOperand, type NarrowTerm } from './narrow.js';

const isChannelTerm = (t: NarrowTerm) => t.operator === 'channel' || t.operator === 'stream';

/** A channel operand as the narrow's channel term reads it (an ID, or a name without case). */
function channelOf(store: Store, operand: unknown): Stream | undefined {
  return typeof operand === 'number'
    ? store.streams.get(operand)
    : store.streams.by('name', String(operand).toLowerCase());
}

/**
 * The messages a narrow may match, in ID order (a live view of the store: do not change it).
 * `ownOnly`: the narrow matches only messages the user received (it does not include the history
 * of channels they may read), so their own messages are a candidate list.
 */
export function narrowCandidates(
  store: Store,
  user: User,
  terms: NarrowTerm[],
  ownOnly: boolean,
  organizationEmails = false,
): readonly Message[] {
  let best: readonly Message[] = store.messages.all();
  const consider = (list: readonly Message[]) => {
    if (list.length < best.length) best = list;
  };
  if (ownOnly) consider(receivedMessages(store, user.user_id));
  const channels: Stream[] = [];
  for (const t of terms) {
    if (t.negated) continue;
    if (isChannelTerm(t)) {
      const stream = channelOf(store, t.operand);
      if (stream) channels.push(stream);
    } else if (t.operator === 'is' && ownOnly) {
      // Only the user's own flags can say unread or starred.
      if (t.operand === 'unread') consider(unreadMessages(store, user.user_id));
      else if (t.operand === 'starred') consider(starredMessages(store, user.user_id));
    } else if (t.operator === 'dm' || t.operator === 'pm-with') {
      const key = conversationKey(store, user, t.operand, organizationEmails);
      if (key !== null) consider(conversationMessages(store, key));
    } else if (t.operator === 'sender') {
      const sender = userByOperand(store, t.operand, organizationEmails);
      if (sender) consider(sentMessages(store, sender.user_id));
    } else if (t.operator === 'id' && /^\d+$/.test(String(t.operand))) {
      const m = store.messages.get(Number(t.operand));
      consider(m ? [m] : []);
    }
  }
  for (const stream of channels) {
    consider(channelMessages(store, stream.stream_id));
    for (const t of terms)
      if (t.operator === 'topic' && !t.negated)
        consider(topicMessagesInOrder(store, stream.stream_id, String(t.operand)));
  }
  return best;
}

/** Index of the first message of `rows` (in ID order) whose ID is >= id. */
export function lowerBound(rows: readonly Message[], id: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid].id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
