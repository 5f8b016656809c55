// Full-text search of the `search` narrow operator, modelled on the real server's PostgreSQL
// search: every word of the query (except stop words) must occur, stemmed, in the message or its
// topic; a "quoted phrase" must also occur as written. Hits are highlighted word by word with
// <span class="highlight">, in text only, never inside a tag.
import { escapeHtml, unescapeHtml } from '../render/html.js';
import { DerivedSlot } from '../../store/derived.js';
import type { Store } from '../../store/store.js';
import { STOP_WORDS } from './stop-words.js';

export interface SearchQuery {
  /** Stems of the query's words. */
  stems: Set<string>;
  /** Quoted phrases, lower-cased. */
  phrases: string[];
}

const IGNORED = new Set(STOP_WORDS);

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A light English stemmer: enough for "tests", "testing" and "tested" to find "test", and
 * "lighthouses" to find "lighthouse" (a final "e" goes, as in the Snowball stemmer PostgreSQL uses).
 */
export function stem(word: string): string {
  const w = word.toLowerCase();
  let s = w;
  if (w.length > 4 && w.endsWith('ies')) s = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith('ing')) s = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) s = w.slice(0, -2);
  else if (w.length > 4 && /(s|x|z|ch|sh)es$/.test(w)) s = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) s = w.slice(0, -1);
  return s.length > 4 && s.endsWith('e') ? s.slice(0, -1) : s;
}

export function parseSearch(operand: string): SearchQuery {
  const stems = new Set<string>();
  const phrases: string[] = [];
  for (const term of operand.match(/"[^"]+"|\S+/g) ?? []) {
    if (term.length > 2 && term.startsWith('"') && term.endsWith('"')) phrases.push(term.slice(1, -1).toLowerCase());
    for (const word of term.match(WORD) ?? []) if (!IGNORED.has(word.toLowerCase())) stems.add(stem(word));
  }
  return { stems, phrases };
}

/** The text of some HTML (tags dropped, character references decoded). */
function htmlText(html: string): string {
  return unescapeHtml(html.replace(/<[^>]*>/g, ' '));
}

/** What a search needs of a message, worked out once per rendering and topic. */
interface SearchDoc {
  html: string;
  topic: string;
  /** Every distinct stem, each between spaces: " stem1 stem2 " (a string is far smaller than a Set). */
  stems: string;
  lower: string;
}

/** What searches keep per message of one world (see SEARCH_MEMORY): its stems, its last highlighting. */
interface SearchMemory {
  docs: WeakMap<object, SearchDoc>;
  highlighted: WeakMap<object, Record<string, { html: string; query: string; result: string }>>;
}

const SEARCH_MEMORY = new DerivedSlot<SearchMemory>(() => ({ docs: new WeakMap(), highlighted: new WeakMap() }));

/** A message of a world's store, whose search stems and highlighting may be kept with that store. */
export interface Kept {
  store: Store;
  message: object;
}

function searchDoc(html: string, topic: string): Omit<SearchDoc, 'html' | 'topic'> {
  const text = `${htmlText(html)} ${topic}`;
  const seen = new Set<string>();
  for (const m of text.matchAll(WORD)) seen.add(stem(m[0]));
  return { stems: ` ${[...seen].join(' ')} `, lower: text.toLowerCase() };
}

/**
 * What a search needs of a message (its HTML and topic). Stemming every word of every message on
 * each search was most of a search's time, so the stems are kept per message object (`message`,
 * in `docs`, its store's) for as long as its HTML and topic stay the same.
 */
function docOf(html: string, topic: string, docs?: WeakMap<object, SearchDoc>, message?: object): SearchDoc {
  let doc = docs?.get(message!);
  if (!doc || doc.html !== html || doc.topic !== topic) {
    doc = { html, topic, ...searchDoc(html, topic) };
    docs?.set(message!, doc);
  }
  return doc;
}

/** A narrow's search terms, each negated or not. */
export interface SearchTerm {
  query: SearchQuery;
  negated: boolean;
}

/**
 * All of a narrow's search terms as one test, whose cost per message grows with the message's
 * words, not with the number of terms: a narrow of 10,000 terms (a client may send one) costs
 * about what one term does. The required stems of every positive term must all be among the
 * message's (more of them than the message has words fails at once); a negated term excludes a
 * message holding all of its stems, found through the term's first stem (an index), and its
 * phrases. Terms that are phrases alone (their words all stop words) are tested one by one.
 */
export function compileSearchTerms(
  terms: SearchTerm[],
): (html: string, topic: string, store?: Store, message?: object) => boolean {
  const required = new Set<string>();
  const phrases: string[] = [];
  const excludedBy = new Map<string, SearchQuery[]>();
  const phraseOnlyNegated: SearchQuery[] = [];
  let impossible = false;
  for (const { query, negated } of terms) {
    const empty = !query.stems.size && !query.phrases.length;
    if (!negated) {
      // An empty query matches nothing, as searchMatches has it.
      if (empty) impossible = true;
      for (const s of query.stems) required.add(s);
      phrases.push(...query.phrases);
    } else if (!empty) {
      const [first] = query.stems;
      if (first === undefined) phraseOnlyNegated.push(query);
      else excludedBy.set(first, [...(excludedBy.get(first) ?? []), query]);
    }
  }
  // Each required stem as the stems text holds it (between spaces), made once, not per message.
  const padded = [...required].map((s) => ` ${s} `);
  // The store whose kept stems were last looked up: a request tests many messages of one store.
  let lastStore: Store | undefined;
  let docs: WeakMap<object, SearchDoc> | undefined;
  return (html, topic, store, message) => {
    if (impossible) return false;
    if (store !== lastStore) {
      lastStore = store;
      docs = store?.derived.of(SEARCH_MEMORY).docs;
    }
    const doc = docOf(html, topic, message ? docs : undefined, message);
    for (let i = 0; i < padded.length; i++) if (!doc.stems.includes(padded[i])) return false;
    for (let i = 0; i < phrases.length; i++) if (!doc.lower.includes(phrases[i])) return false;
    if (excludedBy.size) {
      const own = new Set(doc.stems.split(' '));
      for (const s of own) {
        for (const query of excludedBy.get(s) ?? []) {
          if ([...query.stems].every((x) => own.has(x)) && query.phrases.every((p) => doc.lower.includes(p)))
            return false;
        }
      }
    }
    for (let i = 0; i < phraseOnlyNegated.length; i++)
      if (phraseOnlyNegated[i].phrases.every((p) => doc.lower.includes(p))) return false;
    return true;
  };
}

function highlightTextNode(raw: string, stems: Set<string>, needles: string[]): string {
  const text = unescapeHtml(raw);
  // A word matching a stem contains the stem but for its last letter (the one a stemmer may have
  // changed): a text node with none of those is kept as it is, without stemming its words.
  const lower = text.toLowerCase();
  if (!needles.some((n) => lower.includes(n))) return raw;
  let out = '';
  let last = 0;
  let hit = false;
  for (const m of text.matchAll(WORD)) {
    if (!stems.has(stem(m[0]))) continue;
    hit = true;
    out += `${escapeHtml(text.slice(last, m.index))}<span class="highlight">${escapeHtml(m[0])}</span>`;
    last = m.index + m[0].length;
  }
  // A text node without hits is kept byte for byte.
  return hit ? out + escapeHtml(text.slice(last)) : raw;
}

/** A query's stems as one text, made once per query (a request highlights many messages with one). */
const queryKeys = new WeakMap<SearchQuery, string>();
function keyOf(query: SearchQuery): string {
  let key = queryKeys.get(query);
  if (key === undefined) queryKeys.set(query, (key = [...query.stems].join(' ')));
  return key;
}

/**
 * Wraps every word of `html` that matches the query in <span class="highlight">. With `owner`
 * (the message the HTML belongs to) and `field`, the result is kept for the next search with the
 * same words over the same HTML.
 */
export function highlight(html: string, query: SearchQuery, keep?: Kept, field = 'content'): string {
  if (!query.stems.size) return html;
  const highlighted = keep?.store.derived.of(SEARCH_MEMORY).highlighted;
  const owner = keep?.message;
  const queryKey = owner ? keyOf(query) : '';
  const fields = owner ? highlighted!.get(owner) : undefined;
  const last = fields?.[field];
  if (last && last.html === html && last.query === queryKey) return last.result;
  const needles = [...query.stems].map((st) => (st.length > 1 ? st.slice(0, -1) : st));
  const result = html.replace(
    /(<[^>]*>)|([^<]+)/g,
    (_whole, tag: string | undefined, text: string | undefined) =>
      tag ?? highlightTextNode(text!, query.stems, needles),
  );
  if (owner) {
    if (fields) fields[field] = { html, query: queryKey, result };
    else highlighted!.set(owner, { [field]: { html, query: queryKey, result } });
  }
  return result;
}
