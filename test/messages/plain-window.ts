// The reference for a narrow's window: the plain walk over every stored message, as GET /messages
// and POST /messages/flags/narrow picked their window before they looked only among the narrow's
// candidates (src/domain/messages/candidates.ts). Kept here, in the tests only, so that the indexed
// walk is checked against the one whose cost grew with every message stored.
import type { Store } from '../../src/store/store.js';
import type { Message, User } from '../../src/store/state.js';
import { buildQuery } from '../../src/domain/messages/fetch.js';
import { buildNarrowFilter, parseNarrow } from '../../src/domain/messages/narrow.js';
import { currentVisibility } from '../../src/domain/user-topics/automatic.js';
import { Visibility } from '../../src/domain/user-topics/set-visibility.js';

const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;

export interface WindowAsk {
  anchor: string;
  narrow: unknown[];
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

export interface PlainWindow {
  ids: number[];
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

function anchorOf(anchor: string): number | null {
  if (anchor === 'oldest') return 0;
  if (anchor === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === 'first_unread') return null;
  return Math.min(Math.max(Number(anchor), 0), LARGER_THAN_MAX_MESSAGE_ID);
}

/** The window of `ask` found by walking every message (throws as the narrow's parsing does). */
export function plainWindow(store: Store, user: User, ask: WindowAsk): PlainWindow {
  if (ask.numBefore > 0 && ask.numAfter > 0 && !ask.includeAnchor)
    throw new Error('The anchor can only be excluded at an end of the range');
  const terms = parseNarrow(ask.narrow);
  const query = buildQuery(store, user, terms, false);
  const rows = store.messages.all();
  let anchor = anchorOf(ask.anchor);
  if (anchor === null) {
    const key = String(user.user_id);
    const inChannel = terms.some((t) => (t.operator === 'channel' || t.operator === 'stream') && !t.negated);
    const home = buildNarrowFilter(store, user, [{ operator: 'in', operand: 'home', negated: false }]);
    const notMuted = (m: Message) =>
      inChannel
        ? m.type !== 'stream' || currentVisibility(store, user.user_id, m.stream_id!, m.topic) !== Visibility.muted
        : home.matches(m);
    const first = rows.find((m) => m.flags[key] && !m.flags[key].includes('read') && query.matches(m) && notMuted(m));
    anchor = first ? first.id : LARGER_THAN_MAX_MESSAGE_ID;
  }
  const toLeft = anchor === 0;
  const toRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const numAfter = toRight ? 0 : ask.numAfter;
  let pos = rows.findIndex((m) => m.id >= anchor);
  if (pos < 0) pos = rows.length;
  const before: Message[] = [];
  for (let i = pos - 1; i >= 0 && before.length < ask.numBefore; i--)
    if (query.matches(rows[i])) before.unshift(rows[i]);
  const atAnchor = !toRight && rows[pos]?.id === anchor ? rows[pos] : undefined;
  const found = !!atAnchor && ask.includeAnchor && query.matches(atAnchor);
  const after: Message[] = [];
  for (let i = atAnchor ? pos + 1 : pos; i < rows.length && after.length < numAfter; i++)
    if (query.matches(rows[i])) after.push(rows[i]);
  return {
    ids: [...before, ...(found ? [atAnchor] : []), ...after].map((m) => m.id),
    anchor,
    foundAnchor: found,
    foundOldest: toLeft || before.length < ask.numBefore,
    foundNewest: toRight || after.length < numAfter,
  };
}
