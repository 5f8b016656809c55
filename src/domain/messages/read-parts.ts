// Messages as GET /messages shows them to a viewer, kept with each message row so that a read
// built anew (after a write, or with --no-answer-cache) does not build, shape, serialise and check
// the same dicts again. A kept dict is a part (contract/fragments.ts): it never changes; it is
// dropped when its message row is updated (an edit, a move, a reaction, a flag: Collection
// .updatesOf), or when anything else a dict shows may have changed: users (names, emails,
// avatars, reactions' users), channels (display_recipient), linkifiers (topic_links), the
// organization, or a whole new state (Store.partsVersion). The viewer's flags and read options
// pick one of a message's variants.
import type { Store } from '../../store/store.js';
import type { Message } from '../../store/state.js';
import { DerivedSlot } from '../../store/derived.js';
import { fragment } from '../../contract/fragments.js';
import { messageForUser, type ReadOptions } from './read-dict.js';

const SHOWN_PARTS = ['users', 'streams', 'linkifiers', 'realm'] as const;
/** Dicts kept per world before they are all dropped (a bound on memory: about 1 KB each). */
const MAX_KEPT = 20_000;
/** Variants kept per message (flags differ between viewers; options between clients). */
const MAX_VARIANTS = 16;

interface Kept {
  updates: number;
  stamp: string;
  variants: Map<string, Record<string, unknown>>;
}

const KEPT = new DerivedSlot(() => ({ rows: new WeakMap<Message, Kept>(), count: 0 }));

/** A reader of message dicts for one request: `read(message, flags)` is messageForUser's answer, kept. */
export function messageReader(
  store: Store,
  options: ReadOptions,
): (message: Message, flags: string[]) => Record<string, unknown> {
  const kept = store.derived.of(KEPT);
  const stamp = store.partsVersion(SHOWN_PARTS);
  const optionsKey = `${options.applyMarkdown}|${options.clientGravatar}|${options.allowEmptyTopicName}|${options.emptyTopicDisplayName}|${options.editHistoryPolicy}|`;
  return (message, flags) => {
    const updates = store.messages.updatesOf(message);
    let entry = kept.rows.get(message);
    if (!entry || entry.updates !== updates || entry.stamp !== stamp) {
      if (kept.count >= MAX_KEPT) {
        kept.rows = new WeakMap();
        kept.count = 0;
      }
      kept.rows.set(message, (entry = { updates, stamp, variants: new Map() }));
    }
    const key = optionsKey + flags.join(',');
    let dict = entry.variants.get(key);
    if (!dict) {
      if (entry.variants.size >= MAX_VARIANTS) entry.variants.clear();
      dict = fragment(messageForUser(store, message, flags, options));
      entry.variants.set(key, dict);
      kept.count++;
    }
    return dict;
  };
}
