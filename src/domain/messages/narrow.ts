// Narrows: lists of terms {operator, operand, negated} that select messages. Parsing checks the
// operands' types; building resolves names and IDs (BAD_NARROW for unknown operators, operands,
// channels and users, in the real server's words) into a predicate on stored messages. Used by
// GET /messages (fetch.ts) and GET /messages/matches_narrow; event queues read their narrow's
// terms with readNarrowTerm (events/narrow-filter.ts).
import { ApiError, badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { subscriptionKey } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import { compileSearchTerms, parseSearch, type SearchQuery, type SearchTerm } from './search.js';
import { currentVisibility } from '../user-topics/automatic.js';
import { Visibility } from '../user-topics/set-visibility.js';
import { RESOLVED_TOPIC_PREFIX } from './topics.js';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../server-info.js';
import { userByApiEmail } from '../users/email-visibility.js';

export interface NarrowTerm {
  operator: string;
  operand: unknown;
  negated: boolean;
}

export interface NarrowFilter {
  matches(message: Message): boolean;
  /** The non-negated search terms, whose hits are highlighted. */
  searches: SearchQuery[];
}

const badNarrow = (desc: string) => new ApiError('BAD_NARROW', `Invalid narrow operator: ${desc}`, 400, { desc });

const CHANNEL_OPERATORS = new Set(['channel', 'stream']);
const ID_OPERATORS = new Set([...CHANNEL_OPERATORS, 'id', 'sender', 'group-pm-with', 'dm-including']);
const ID_LIST_OPERATORS = new Set(['pm-with', 'dm']);

function checkOperand(operator: string, operand: unknown): void {
  if (ID_OPERATORS.has(operator)) {
    if (typeof operand !== 'string' && !Number.isInteger(operand))
      throw badRequest('operand is not a string or integer');
  } else if (ID_LIST_OPERATORS.has(operator)) {
    const ok = typeof operand === 'string' || (Array.isArray(operand) && operand.every(Number.isInteger));
    if (!ok) throw badRequest('operand is not a string or an integer list');
  } else if (typeof operand !== 'string') {
    throw badRequest('operand is not a string');
  } else if (operator === 'search' && !operand.trim()) {
    throw badRequest('operand cannot be blank.');
  }
}

/** One term as a client sends it: an {operator, operand, negated} object or a legacy [operator, operand] pair. */
export function readNarrowTerm(t: unknown): NarrowTerm {
  return Array.isArray(t)
    ? { operator: String(t[0]), operand: t[1], negated: false }
    : { operator: String((t as any).operator), operand: (t as any).operand, negated: !!(t as any).negated };
}

/**
 * The terms of a narrow, each operand checked for its operator's type, for the operations that
 * search stored messages (GET /messages, GET /messages/matches_narrow, POST /messages/flags/narrow).
 * A client that shows the empty topic under its display name asks for it by that name: the real
 * server reads the first `topic` term whose operand is exactly "general chat" as the empty topic
 * (later topic terms and event queues' narrows are taken as written).
 */
export function parseNarrow(raw: unknown[]): NarrowTerm[] {
  let firstTopic = true;
  return raw.map((t) => {
    const term = readNarrowTerm(t);
    checkOperand(term.operator, term.operand);
    if (term.operator !== 'topic' || !firstTopic) return term;
    firstTopic = false;
    return term.operand === EMPTY_TOPIC_FALLBACK_NAME ? { ...term, operand: '' } : term;
  });
}

type Predicate = (m: Message) => boolean;

/**
 * A user named by ID or API email (without case), as the narrow operators name them; below feature
 * level 163 (`organizationEmails`) by the API email the organization's setting gave.
 */
export function userByOperand(store: Store, operand: unknown, organizationEmails = false): User | undefined {
  return typeof operand === 'number'
    ? store.users.get(operand)
    : userByApiEmail(store, String(operand).trim(), organizationEmails);
}

/**
 * The conversation a `dm` operand names, with `user` in it: its participants' IDs sorted and joined
 * with commas, as a direct message's recipient_ids are; null when a user is unknown.
 */
export function conversationKey(store: Store, user: User, operand: unknown, organizationEmails = false): string | null {
  const items = typeof operand === 'string' ? operand.split(',') : (operand as number[]);
  const ids = new Set([user.user_id]);
  for (const item of items) {
    const u = userByOperand(store, item, organizationEmails);
    if (!u) return null;
    ids.add(u.user_id);
  }
  return [...ids].sort((a, b) => a - b).join(',');
}

class Builder {
  private channelTerm = false;
  private dmTerm = false;
  readonly searches: SearchQuery[] = [];

  constructor(
    private readonly store: Store,
    private readonly user: User,
    private readonly organizationEmails: boolean,
  ) {}

  private flags(m: Message): string[] {
    return m.flags[String(this.user.user_id)] ?? [];
  }

  /** No message is both a channel message and a direct message. */
  private kind(kind: 'channel' | 'dm', negated: boolean): void {
    if (negated) return;
    if (kind === 'channel') this.channelTerm = true;
    else this.dmTerm = true;
    if (this.channelTerm && this.dmTerm) throw badNarrow('No message can be both a channel message and direct message');
  }

  private userByOperand(operand: unknown): User | undefined {
    return userByOperand(this.store, operand, this.organizationEmails);
  }

  private channel(operand: unknown, negated: boolean): Predicate {
    this.kind('channel', negated);
    const stream =
      typeof operand === 'number'
        ? this.store.streams.get(operand)
        : this.store.streams.by('name', String(operand).toLowerCase());
    if (!stream) throw badNarrow(`unknown channel ${operand}`);
    return (m) => m.type === 'stream' && m.stream_id === stream.stream_id;
  }

  private channels(operand: string, negated: boolean): Predicate {
    this.kind('channel', negated);
    const test =
      operand === 'public'
        ? (s: { invite_only: boolean }) => !s.invite_only
        : operand === 'web-public'
          ? (s: { is_web_public: boolean }) => s.is_web_public
          : null;
    if (!test) throw badNarrow(`unknown channels operand ${operand}`);
    return (m) => {
      if (m.type !== 'stream') return false;
      // A message of a channel the state lacks (an imported state may hold one) matches nothing.
      const stream = this.store.streams.get(m.stream_id!);
      return stream !== undefined && test(stream);
    };
  }

  private dm(operand: unknown, negated: boolean): Predicate {
    this.kind('dm', negated);
    const key = conversationKey(this.store, this.user, operand, this.organizationEmails);
    if (key === null)
      throw badNarrow(`unknown user in ${Array.isArray(operand) ? `[${operand.join(', ')}]` : operand}`);
    return (m) => m.type === 'private' && m.recipient_ids.join(',') === key;
  }

  private dmIncluding(operand: unknown, negated: boolean, groupOnly: boolean): Predicate {
    this.kind('dm', negated);
    const u = this.userByOperand(operand);
    if (!u) throw badNarrow(`unknown user ${operand}`);
    return (m) =>
      m.type === 'private' && m.recipient_ids.includes(u.user_id) && (!groupOnly || m.recipient_ids.length > 2);
  }

  private isMuted(m: Message): boolean {
    if (m.type !== 'stream') return false;
    const policy = currentVisibility(this.store, this.user.user_id, m.stream_id!, m.topic);
    if (policy === Visibility.muted) return true;
    const sub = this.store.subscriptions.get(subscriptionKey(this.user.user_id, m.stream_id!));
    return !!sub?.is_muted && policy !== Visibility.unmuted && policy !== Visibility.followed;
  }

  private is(operand: string, negated: boolean): Predicate {
    const has = (flag: string) => (m: Message) => this.flags(m).includes(flag);
    switch (operand) {
      case 'dm':
      case 'private':
        this.kind('dm', negated);
        return (m) => m.type === 'private';
      case 'starred':
        return has('starred');
      case 'unread':
        return (m) => !this.flags(m).includes('read');
      case 'mentioned': {
        const mention = [
          'mentioned',
          'wildcard_mentioned',
          'stream_wildcard_mentioned',
          'topic_wildcard_mentioned',
          'group_mentioned',
        ];
        return (m) => this.flags(m).some((f) => mention.includes(f));
      }
      case 'alerted':
        return has('has_alert_word');
      case 'resolved':
        return (m) => m.type === 'stream' && m.topic.startsWith(RESOLVED_TOPIC_PREFIX);
      case 'followed':
        return (m) =>
          m.type === 'stream' &&
          currentVisibility(this.store, this.user.user_id, m.stream_id!, m.topic) === Visibility.followed;
      case 'muted':
        return (m) => this.isMuted(m);
      default:
        throw badNarrow(`unknown 'is' operand ${operand}`);
    }
  }

  private has(operand: string): Predicate {
    switch (operand) {
      case 'link':
        return (m) => /<a\s[^>]*href=/.test(m.rendered_content);
      case 'image':
        return (m) => /<img\s|<a\s[^>]*href="[^"]+\.(?:png|jpe?g|gif|webp|bmp)(?:\?[^"]*)?"/i.test(m.rendered_content);
      case 'attachment':
        return (m) => /href="[^"]*\/user_uploads\//.test(m.rendered_content);
      case 'reaction':
        return (m) => m.reactions.length > 0;
      default:
        throw badNarrow(`unknown 'has' operand ${operand}`);
    }
  }

  term({ operator, operand, negated }: NarrowTerm): Predicate {
    switch (operator) {
      case 'channel':
      case 'stream':
        return this.channel(operand, negated);
      case 'channels':
      case 'streams':
        return this.channels(String(operand), negated);
      case 'topic':
        this.kind('channel', negated);
        return (m) => m.type === 'stream' && m.topic.toLowerCase() === String(operand).toLowerCase();
      case 'sender': {
        const sender = this.userByOperand(operand);
        if (!sender) throw badNarrow(`unknown user ${operand}`);
        return (m) => m.sender_id === sender.user_id;
      }
      case 'near':
        return () => true;
      case 'id':
        if (!/^\d+$/.test(String(operand))) throw badNarrow('Invalid message ID');
        return (m) => m.id === Number(operand);
      case 'dm':
      case 'pm-with':
        return this.dm(operand, negated);
      case 'dm-including':
        return this.dmIncluding(operand, negated, false);
      case 'group-pm-with':
        return this.dmIncluding(operand, negated, true);
      case 'is':
        return this.is(String(operand), negated);
      case 'has':
        return this.has(String(operand));
      case 'in':
        if (operand === 'home') return (m) => !this.isMuted(m);
        if (operand === 'all') return () => true;
        throw badNarrow(`unknown 'in' operand ${operand}`);
      default:
        throw badNarrow(`unknown operator ${operator}`);
    }
  }
}

/** `organizationEmails`: people named by email as servers below feature level 163 named them. */
export function buildNarrowFilter(
  store: Store,
  user: User,
  terms: NarrowTerm[],
  organizationEmails = false,
): NarrowFilter {
  const builder = new Builder(store, user, organizationEmails);
  // Search terms are tested together (their cost per message does not grow with their number),
  // after the other terms, which are cheaper.
  const searchTerms: SearchTerm[] = [];
  const predicates: Predicate[] = [];
  for (const t of terms) {
    if (t.operator === 'search') {
      const query = parseSearch(String(t.operand));
      if (!t.negated) builder.searches.push(query);
      searchTerms.push({ query, negated: t.negated });
      continue;
    }
    const p = builder.term(t);
    predicates.push(t.negated ? (m: Message) => !p(m) : p);
  }
  if (searchTerms.length) {
    const search = compileSearchTerms(searchTerms);
    predicates.push((m) => search(m.rendered_content, m.topic, store, m));
  }
  // A loop, not predicates.every(p => p(m)): no closure made per message tested.
  const matches = (m: Message) => {
    for (let i = 0; i < predicates.length; i++) if (!predicates[i](m)) return false;
    return true;
  };
  return { matches, searches: builder.searches };
}
