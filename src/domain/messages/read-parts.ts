// Messages as GET /messages shows them to a viewer, kept with each message row so that a read
// built anew (after a write, or with --no-answer-cache) does not build, shape, serialise and check
// the same dicts again. A kept dict is a part (contract/fragments.ts): it never changes; it is
// dropped when its message row is updated (an edit, a move, a reaction, a flag: Collection
// .updatesOf), or when anything else a dict shows may have changed: users (names, emails,
// avatars, reactions' users), channels (display_recipient), linkifiers (topic_links), the
// organization, or a whole new state (Store.partsVersion). The viewer's flags and read options
// pick one of a message's variants (the options tell levels apart where a dict differs by level:
// below 163 its addresses follow the organization's setting).
import type { Store } from '../../store/store.js';
import type { Message } from '../../store/state.js';
import { DerivedSlot } from '../../store/derived.js';
import { fragment } from '../../contract/fragments.js';
import { messageForUser, type ReadOptions } from './read-dict.js';
import { userFlags } from './history.js';

const SHOWN_PARTS = ['users', 'streams', 'linkifiers', 'realm'] as const;
/** Dicts kept per world before they are all dropped (a bound on memory: about 1 KB each). */
const MAX_KEPT = 20_000;
/** Variants kept per message (flags differ between viewers; options between clients). */
const MAX_VARIANTS = 16;

interface Kept {
  updates: number;
  stamp: string;
  /** Dicts by read options, then by the viewer's own flags. */
  variants: Map<string, Map<string, Record<string, unknown>>>;
  size: number;
  /**
   * The dict last handed out, with the read options and the viewer's own flags list it was for
   * (lists are replaced, never changed): the next read by the same kind of request and viewer
   * takes it without the two lookups by text.
   */
  lastOptions: string;
  lastOwn: readonly string[] | undefined;
  lastDict: Record<string, unknown> | null;
}

const KEPT = new DerivedSlot(() => ({ rows: new WeakMap<Message, Kept>(), count: 0 }));

/** Flags lists are replaced, never changed (Collection.update): their text is kept per list. */
const flagsText = new WeakMap<readonly string[], string>();
function textOf(flags: readonly string[]): string {
  let text = flagsText.get(flags);
  if (text === undefined) flagsText.set(flags, (text = flags.join(',')));
  return text;
}

/** A reader of message dicts for one request and viewer: messageForUser's answer with the viewer's flags, kept. */
export function messageReader(
  store: Store,
  options: ReadOptions,
  userId: number,
): (message: Message) => Record<string, unknown> {
  const kept = store.derived.of(KEPT);
  const stamp = store.partsVersion(SHOWN_PARTS);
  const userKey = String(userId);
  const optionsKey = `${options.applyMarkdown}|${options.clientGravatar}|${options.allowEmptyTopicName}|${options.emptyTopicDisplayName}|${options.editHistoryPolicy}|${options.hideLinkPreviewsFlag}|${options.organizationEmails}`;
  return (message) => {
    const updates = store.messages.updatesOf(message);
    let entry = kept.rows.get(message);
    if (!entry || entry.updates !== updates || entry.stamp !== stamp) {
      if (kept.count >= MAX_KEPT) {
        kept.rows = new WeakMap();
        kept.count = 0;
      }
      kept.rows.set(
        message,
        (entry = { updates, stamp, variants: new Map(), size: 0, lastOptions: '', lastOwn: undefined, lastDict: null }),
      );
    }
    // The viewer's own flags decide the shown ones (userFlags); none: a message read from history.
    const own = message.flags[userKey] as string[] | undefined;
    if (entry.lastDict && entry.lastOwn === own && entry.lastOptions === optionsKey) return entry.lastDict;
    let byFlags = entry.variants.get(optionsKey);
    if (!byFlags) entry.variants.set(optionsKey, (byFlags = new Map()));
    const flagsKey = own ? textOf(own) : '(history)';
    let dict = byFlags.get(flagsKey);
    if (!dict) {
      if (entry.size >= MAX_VARIANTS) {
        entry.variants.clear();
        entry.variants.set(optionsKey, byFlags);
        byFlags.clear();
        entry.size = 0;
      }
      dict = fragment(messageForUser(store, message, userFlags(message, userId), options));
      byFlags.set(flagsKey, dict);
      entry.size++;
      kept.count++;
    }
    entry.lastOptions = optionsKey;
    entry.lastOwn = own;
    entry.lastDict = dict;
    return dict;
  };
}
