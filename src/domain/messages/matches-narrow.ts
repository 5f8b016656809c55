// GET /messages/matches_narrow: which of the given messages (among those the user received)
// match the narrow, with their HTML and escaped topic, search hits highlighted.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { escapeHtml } from '../render/html.js';
import { buildNarrowFilter, parseNarrow } from './narrow.js';
import { highlight } from './search.js';
import { DerivedSlot } from '../../store/derived.js';
import { fragment } from '../../contract/fragments.js';

export interface NarrowMatch {
  match_content: string;
  match_subject: string;
}

/**
 * Each message's last answer entry, a part (contract/fragments.ts) whose JSON is made once: taken
 * again only while its two texts are the very ones the highlighting gives (kept there too).
 */
const ENTRIES = new DerivedSlot(() => new WeakMap<object, NarrowMatch>());

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
  const out: Record<string, NarrowMatch> = {};
  const key = String(user.user_id);
  // Most of the messages asked about share a few topics: each escaped once per request.
  const escapedTopics = new Map<string, string>();
  const entries = store.derived.of(ENTRIES);
  for (const id of msgIds) {
    const message = store.messages.get(id);
    // Like the real server, only messages the user received (has flags for) are considered.
    if (!message || !(key in message.flags) || !filter.matches(message)) continue;
    let topic = escapedTopics.get(message.topic);
    if (topic === undefined) escapedTopics.set(message.topic, (topic = escapeHtml(message.topic)));
    const kept = { store, message };
    const content = highlight(message.rendered_content, hits, kept, 'content');
    const subject = highlight(topic, hits, kept, 'subject');
    let entry = entries.get(message);
    if (!entry || entry.match_content !== content || entry.match_subject !== subject)
      entries.set(message, (entry = fragment({ match_content: content, match_subject: subject })));
    out[String(id)] = entry;
  }
  return out;
}
