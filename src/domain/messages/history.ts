// Reading history: which channel messages a user may read without having received them, and the
// flags such messages show (read + historical, as the real server simulates for them).
import type { Store } from '../../store/store.js';
import type { Message, Stream, User } from '../../store/state.js';
import { hasContentAccess } from '../channels/access.js';
import type { NarrowTerm } from './narrow.js';
import { isGuest } from '../users/roles.js';

/** May the user read the channel's messages from before they joined (can_access_stream_history)? */
export function canReadChannelHistory(store: Store, user: User, stream: Stream): boolean {
  if (stream.is_web_public) return true;
  if (!stream.invite_only) return !isGuest(user) || hasContentAccess(store, user, stream);
  return stream.history_public_to_subscribers && hasContentAccess(store, user, stream);
}

/** The user's flags for a message: their own, or read + historical where they never received it. */
export function userFlags(message: Message, userId: number): string[] {
  const own = message.flags[String(userId)];
  if (!own) return ['read', 'historical'];
  // Deprecated since FL 224 but still sent: either kind of wildcard mention.
  if (
    !own.includes('wildcard_mentioned') &&
    (own.includes('stream_wildcard_mentioned') || own.includes('topic_wildcard_mentioned'))
  ) {
    return [...own, 'wildcard_mentioned'];
  }
  return [...own];
}

/**
 * ok_to_include_history: a fetch may return messages the user never received only when the narrow
 * pins a channel whose history they may read (or all public channels), and no `is:` term asks
 * about per-user flags (there cannot be any on such messages).
 */
export function narrowIncludesHistory(store: Store, user: User, terms: NarrowTerm[]): boolean {
  let include = false;
  for (const t of terms) {
    if ((t.operator === 'channel' || t.operator === 'stream') && !t.negated) {
      const stream =
        typeof t.operand === 'number'
          ? store.streams.get(t.operand)
          : store.streams.by('name', String(t.operand).toLowerCase());
      include = !!stream && canReadChannelHistory(store, user, stream);
    } else if (
      (t.operator === 'channels' || t.operator === 'streams') &&
      t.operand === 'public' &&
      !t.negated &&
      !isGuest(user)
    ) {
      include = true;
    }
  }
  if (terms.some((t) => t.operator === 'is' && t.operand !== 'resolved' && t.operand !== 'followed')) include = false;
  return include;
}

/** A per-request cache of canReadChannelHistory, for walking many messages. */
export function historyReader(store: Store, user: User): (m: Message) => boolean {
  const cache = new Map<number, boolean>();
  return (m) => {
    if (m.type !== 'stream') return false;
    let ok = cache.get(m.stream_id!);
    if (ok === undefined) {
      const stream = store.streams.get(m.stream_id!);
      ok = !!stream && canReadChannelHistory(store, user, stream);
      cache.set(m.stream_id!, ok);
    }
    return ok;
  };
}
