// GET /messages: a window of the messages matching a narrow around an anchor, or the given
// message IDs. The window is looked for in the narrow's candidates (candidates.ts: the user's,
// the channel's or the topic's messages, kept in ID order by the store), so the anchor is found by
// binary search and the window is collected by walking outwards from it until enough matches are
// found: no request scans and sorts everything, nor walks messages the narrow cannot match.
import { badRequest, incompatibleParameters } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { unreadMessages } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import { lowerBound, narrowCandidates } from './candidates.js';
import { escapeHtml } from '../render/html.js';
import { historyReader, narrowIncludesHistory } from './history.js';
import { buildNarrowFilter, parseNarrow, type NarrowFilter, type NarrowTerm } from './narrow.js';
import type { ReadOptions } from './read-dict.js';
import { messageReader } from './read-parts.js';
import { highlight } from './search.js';
import { currentVisibility } from '../user-topics/automatic.js';
import { Visibility } from '../user-topics/set-visibility.js';

const MAX_MESSAGES_PER_FETCH = 5000;
/** What anchor=newest stands for (the real server's LARGER_THAN_MAX_MESSAGE_ID). */
const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;

export interface FetchRequest extends ReadOptions {
  anchor?: string;
  useFirstUnreadAnchor: boolean;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  narrow?: unknown[];
  messageIds?: number[];
}

/** parse_anchor_value: null stands for first_unread. */
function parseAnchor(anchor: string | undefined, useFirstUnread: boolean): number | null {
  if (useFirstUnread) return null;
  if (anchor === undefined) throw badRequest("Missing 'anchor' argument.");
  if (anchor === 'oldest') return 0;
  if (anchor === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === 'first_unread') return null;
  if (!/^\s*-?\d+\s*$/.test(anchor)) throw badRequest('Invalid anchor');
  return Math.min(Math.max(Number(anchor), 0), LARGER_THAN_MAX_MESSAGE_ID);
}

interface Query {
  filter: NarrowFilter;
  /** The message matches the narrow and the user may read it. */
  matches: (m: Message) => boolean;
  /** Only messages the user received can match (no channel history is included). */
  ownOnly: boolean;
  /** People named by email as servers below feature level 163 named them. */
  organizationEmails: boolean;
}

export function buildQuery(
  store: Store,
  user: User,
  terms: NarrowTerm[],
  anyAccessible: boolean,
  organizationEmails = false,
): Query {
  const filter = buildNarrowFilter(store, user, terms, organizationEmails);
  const key = String(user.user_id);
  const readsHistory = historyReader(store, user);
  const withHistory = anyAccessible || narrowIncludesHistory(store, user, terms);
  const visible = withHistory ? (m: Message) => key in m.flags || readsHistory(m) : (m: Message) => key in m.flags;
  return { filter, matches: (m) => visible(m) && filter.matches(m), ownOnly: !withHistory, organizationEmails };
}

/**
 * find_first_unread_anchor: the first unread match, leaving out muted topics and (outside a
 * channel narrow) muted channels; LARGER_THAN_MAX_MESSAGE_ID when there is none.
 */
function firstUnread(
  store: Store,
  user: User,
  terms: NarrowTerm[],
  query: Query,
  candidates: readonly Message[],
): number {
  const key = String(user.user_id);
  const inChannel = terms.some((t) => (t.operator === 'channel' || t.operator === 'stream') && !t.negated);
  const home = buildNarrowFilter(store, user, [{ operator: 'in', operand: 'home', negated: false }]);
  const notMuted = inChannel
    ? (m: Message) =>
        m.type !== 'stream' || currentVisibility(store, user.user_id, m.stream_id!, m.topic) !== Visibility.muted
    : (m: Message) => home.matches(m);
  // Both lists hold every unread match, in ID order: the shorter is walked.
  const unread = unreadMessages(store, user.user_id);
  for (const m of unread.length < candidates.length ? unread : candidates) {
    const flags = m.flags[key];
    if (flags && !flags.includes('read') && query.matches(m) && notMuted(m)) return m.id;
  }
  return LARGER_THAN_MAX_MESSAGE_ID;
}

function present(
  store: Store,
  user: User,
  messages: Message[],
  query: Query,
  req: FetchRequest,
): Record<string, unknown>[] {
  const read = messageReader(store, req, user.user_id);
  if (query.filter.searches.length === 0) {
    const dicts = new Array<Record<string, unknown>>(messages.length);
    for (let i = 0; i < messages.length; i++) dicts[i] = read(messages[i]);
    return dicts;
  }
  // Several search terms highlight together, in one pass, as in matches_narrow.
  const hits = { stems: new Set(query.filter.searches.flatMap((q) => [...q.stems])), phrases: [] };
  return messages.map((m) => {
    const dict = read(m);
    // A kept dict never changes: the highlights go on a copy.
    return {
      ...dict,
      match_content: highlight(m.rendered_content, hits, { store, message: m }, 'content'),
      match_subject: highlight(escapeHtml(m.topic), hits, { store, message: m }, 'subject'),
    };
  });
}

export function fetchMessages(store: Store, user: User, req: FetchRequest): Record<string, unknown> {
  const byIds = req.messageIds !== undefined;
  if (byIds && (req.numBefore || req.numAfter || req.anchor !== undefined || req.useFirstUnreadAnchor)) {
    throw incompatibleParameters([
      'num_before',
      'num_after',
      'anchor',
      'message_ids',
      'include_anchor',
      'use_first_unread_anchor',
    ]);
  }
  const anchor = byIds ? 0 : parseAnchor(req.anchor, req.useFirstUnreadAnchor);
  const requested = byIds ? req.messageIds!.length : req.numBefore + req.numAfter;
  if (requested > MAX_MESSAGES_PER_FETCH)
    throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  if (!byIds && req.numBefore > 0 && req.numAfter > 0 && !req.includeAnchor) {
    throw badRequest('The anchor can only be excluded at an end of the range');
  }
  const terms = parseNarrow(req.narrow ?? []);
  // Fetching by ID returns every requested message the user may access.
  const query = buildQuery(store, user, terms, byIds, req.organizationEmails);

  if (byIds) {
    const wanted = [...new Set(req.messageIds)].sort((a, b) => a - b);
    const found = wanted.map((id) => store.messages.get(id)).filter((m): m is Message => !!m && query.matches(m));
    return {
      messages: present(store, user, found, query, req),
      found_anchor: false,
      found_oldest: false,
      found_newest: false,
      history_limited: false,
    };
  }

  const window = windowAround(store, user, {
    anchor,
    terms,
    query,
    numBefore: req.numBefore,
    numAfter: req.numAfter,
    includeAnchor: req.includeAnchor,
  });
  return {
    messages: present(store, user, window.messages, query, req),
    found_anchor: window.foundAnchor,
    found_oldest: window.foundOldest,
    found_newest: window.foundNewest,
    history_limited: false,
    anchor: window.anchor,
  };
}

interface WindowRequest {
  /** A message ID, or null for the first unread match. */
  anchor: number | null;
  terms: NarrowTerm[];
  query: Query;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

export interface MessageWindow {
  messages: Message[];
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

/** The matching messages around an anchor, as GET /messages and POST /messages/flags/narrow pick them. */
function windowAround(store: Store, user: User, req: WindowRequest): MessageWindow {
  const { terms, query } = req;
  let { anchor } = req;
  // Every match is among the candidates, in ID order: the walk finds the same window in them.
  const rows = narrowCandidates(store, user, terms, query.ownOnly, query.organizationEmails);
  if (anchor === null) anchor = firstUnread(store, user, terms, query, rows);
  const toLeft = anchor === 0;
  const toRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const numAfter = toRight ? 0 : req.numAfter;
  const pos = lowerBound(rows, anchor);

  const before: Message[] = [];
  for (let i = pos - 1; i >= 0 && before.length < req.numBefore; i--) if (query.matches(rows[i])) before.push(rows[i]);
  before.reverse();
  const atAnchor = !toRight && pos < rows.length && rows[pos].id === anchor ? rows[pos] : undefined;
  const anchorRow = atAnchor && req.includeAnchor && query.matches(atAnchor) ? [atAnchor] : [];
  const after: Message[] = [];
  for (let i = atAnchor ? pos + 1 : pos; i < rows.length && after.length < numAfter; i++)
    if (query.matches(rows[i])) after.push(rows[i]);

  return {
    // Most windows are one side of the anchor: that side's array itself, no copy.
    messages: anchorRow.length || after.length ? before.concat(anchorRow, after) : before,
    anchor,
    foundAnchor: anchorRow.length === 1,
    foundOldest: toLeft || before.length < req.numBefore,
    foundNewest: toRight || after.length < numAfter,
  };
}

/** The messages of a narrow's window, for changing them (no presentation). */
export function narrowWindow(
  store: Store,
  user: User,
  req: {
    anchor: string;
    narrow: unknown[];
    numBefore: number;
    numAfter: number;
    includeAnchor: boolean;
    organizationEmails?: boolean;
  },
): MessageWindow {
  const anchor = parseAnchor(req.anchor, false);
  if (req.numBefore > 0 && req.numAfter > 0 && !req.includeAnchor)
    throw badRequest('The anchor can only be excluded at an end of the range');
  const terms = parseNarrow(req.narrow);
  const query = buildQuery(store, user, terms, false, req.organizationEmails);
  return windowAround(store, user, {
    anchor,
    terms,
    query,
    numBefore: req.numBefore,
    numAfter: req.numAfter,
    includeAnchor: req.includeAnchor,
  });
}
