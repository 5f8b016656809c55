// GET /messages/matches_narrow: which of the given messages (among those the user received)
// match the narrow, with their HTML and escaped topic, search hits highlighted.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { escapeHtml } from '../render/html.js';
import { buildNarrowFilter, parseNarrow } from './narrow.js';
import { highlight } from './search.js';

export interface NarrowMatch {
  match_content: string;
  match_subject: string;
}

export function messagesMatchingNarrow(
  store: Store,
  user: User,
  msgIds: number[],
  narrow: unknown[],
): Record<string, NarrowMatch> {
  const filter = buildNarrowFilter(store, user, parseNarrow(narrow));
  // Several search terms highlight together, in one pass (a hit is never wrapped twice).
  const hits = { stems: new Set(filter.searches.flatMap((q) => [...q.stems])), phrases: [] };
  const out: Record<string, NarrowMatch> = {};
  for (const id of msgIds) {
    const message = store.messages.get(id);
    // Like the real server, only messages the user received (has flags for) are considered.
    if (!message || !(String(user.user_id) in message.flags) || !filter.matches(message)) continue;
    out[String(id)] = {
      match_content: highlight(message.rendered_content, hits, { store, message }, 'content'),
      match_subject: highlight(escapeHtml(message.topic), hits, { store, message }, 'subject'),
    };
  }
  return out;
}
