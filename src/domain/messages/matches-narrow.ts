// GET /messages/matches_narrow: which of the given messages (among those the user received)
// match the narrow, with their HTML and escaped topic, search hits highlighted.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { escapeHtml } from '../render/html.js';
import { buildNarrowFilter, parseNarrow } from './narrow.js';
import { highlight } from './search.js';
import { DerivedSlot } from '../../store/derived.js';
import { fragment, partMap } from '../../contract/fragments.js';

export interface NarrowMatch {
  match_content: string;
  match_subject: string;
}

/**
 * Each message's last answer entry, a part (contract/fragments.ts) whose JSON is made once, with
 * what it was made from: taken again, without highlighting anything, while the message's HTML and
 * topic and the search's stems are the very ones it was made from (the entry is a function of
 * those three alone).
 */
interface KeptEntry {
  html: string;
  topic: string;
  stems: string;
  entry: NarrowMatch;
}
const ENTRIES = new DerivedSlot(() => new WeakMap<object, KeptEntry>());

export function messagesMatchingNarrow(
  store: Store,
  user: User,
  msgIds: number[],
  narrow: unknown[],
  organizationEmails: boolean,
): Record<string, NarrowMatch> {
  const filter = buildNarrowFilter(store, user, parseNarrow(narrow), organizationEmails);
  // Several search terms highlight together, in one pass (a hit is never wrapped twice).
  const hits = { stems: new Set(filter.searches.flatMap((q) => [...q.stems])), phrases: [] };
  // The stems as one text: no stem holds a space, so two texts are equal only for the same stems in the same order.
  const stems = [...hits.stems].join(' ');
  const out = partMap<Record<string, NarrowMatch>>({});
  const key = String(user.user_id);
  // Most of the messages asked about share a few topics: each escaped once per request.
  const escapedTopics = new Map<string, string>();
  const entries = store.derived.of(ENTRIES);
  for (const id of msgIds) {
    const message = store.messages.get(id);
    // Like the real server, only messages the user received (has flags for) are considered.
    if (!message || !(key in message.flags) || !filter.matches(message)) continue;
    let kept = entries.get(message);
    if (!kept || kept.html !== message.rendered_content || kept.topic !== message.topic || kept.stems !== stems) {
      let topic = escapedTopics.get(message.topic);
      if (topic === undefined) escapedTopics.set(message.topic, (topic = escapeHtml(message.topic)));
      const content = highlight(message.rendered_content, hits);
      const subject = highlight(topic, hits);
      // The part itself is kept while its two texts stay the same (the JSON and the checks it passed with it).
      const entry =
        kept && kept.entry.match_content === content && kept.entry.match_subject === subject
          ? kept.entry
          : fragment({ match_content: content, match_subject: subject });
      entries.set(message, (kept = { html: message.rendered_content, topic: message.topic, stems, entry }));
    }
    out[String(id)] = kept.entry;
  }
  return out;
}
