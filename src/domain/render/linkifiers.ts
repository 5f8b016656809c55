// The organization's linkifiers as a marked extension: text matching a linkifier's pattern
// becomes a link to its URL template, filled with the pattern's named groups. Linkifiers apply in
// the organization's order (the first that matches at a position wins), never inside a link or
// code, and only to whole words, as on the real server.
import type { TokenizerAndRendererExtension, Tokens } from 'marked';
import { RE2JS, type Matcher } from 're2js';
import type { Store } from '../../store/store.js';
import type { Linkifier } from '../../store/state.js';
import { escapeHtml } from './html.js';
import { atWordStart } from './render-state.js';
import { DerivedSlot } from '../../store/derived.js';
import { badRequest } from '../../errors.js';

interface CompiledLinkifier {
  linkifier: Linkifier;
  /**
   * The pattern on RE2's linear-time engine (as the real server runs it): no pattern and no text
   * can make a match backtrack. Group 1 is the linkifier's own match; after it must come a
   * non-word character or the end (RE2 has no lookahead, so that character is matched, not kept).
   */
  regex: RE2JS;
  /** Group name -> index, for the URL template's variables. */
  groups: Record<string, number>;
}

type LinkifierToken = Tokens.Generic & { html: string };

/**
 * re2js words its syntax errors as Go's regexp/syntax does; the real server's RE2 (C++) names
 * the same errors thus (its RegexpStatus code texts), followed by ": " and the offending text.
 */
const RE2_CODE_TEXTS: Readonly<Record<string, string>> = {
  'missing closing )': 'missing )',
  'missing closing ]': 'missing ]',
  'invalid nested repetition operator': 'bad repetition operator',
  'missing argument to repetition operator': 'no argument for repetition operator',
  'invalid repeat count': 'invalid repetition size',
  'invalid or unsupported Perl syntax': 'invalid perl operator',
  'invalid named capture': 'invalid named capture group',
  'trailing backslash at end of expression': 'trailing \\',
};

/** What RE2 (C++) says of a pattern re2js refused: "missing ): (foo". */
function re2Wording(err: unknown): string {
  const { error, input } = err as { error?: string; input?: string | null };
  if (typeof error !== 'string') return (err as Error).message.replace(/^error parsing regexp: /, '');
  const code = RE2_CODE_TEXTS[error] ?? error;
  return input ? `${code}: ${input}` : code;
}

/**
 * Compiles a linkifier pattern as the real server does (RE2 syntax: no lookaround, no
 * backreferences), or refuses it with the real server's error. Every way a linkifier enters a
 * state (fixture, import, scenario, the linkifier operations) goes through here.
 */
export function checkLinkifierPattern(pattern: string): RE2JS {
  try {
    return RE2JS.compile(pattern);
  } catch (err) {
    throw badRequest(`Bad regular expression: ${re2Wording(err)}`);
  }
}

function compile(linkifier: Linkifier): CompiledLinkifier | null {
  try {
    checkLinkifierPattern(linkifier.pattern);
  } catch {
    return null; // refused on the way in; kept out of rendering whatever its origin
  }
  const regex = RE2JS.compile(`((?:${linkifier.pattern}))(?:$|[^\\p{L}\\p{N}_])`);
  return { linkifier, regex, groups: regex.namedGroups() };
}

/** Compiled once per set of linkifiers (every render needs them; compiling cost more than rendering). */
const COMPILED = new DerivedSlot(() => ({
  kept: null as { rows: Linkifier[]; patterns: string[]; compiled: CompiledLinkifier[] } | null,
}));

export function compileLinkifiers(store: Store): CompiledLinkifier[] {
  const rows = store.linkifiers.all();
  const last = store.derived.of(COMPILED);
  const hit = last.kept;
  if (
    hit &&
    hit.rows.length === rows.length &&
    rows.every((l, i) => hit.rows[i] === l && hit.patterns[i] === l.pattern)
  )
    return hit.compiled;
  const compiled = rows.map(compile).filter((c): c is CompiledLinkifier => c !== null);
  last.kept = { rows: [...rows], patterns: rows.map((l) => l.pattern), compiled };
  return compiled;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

function encodeValue(value: string, allowReserved: boolean): string {
  let out = '';
  for (const ch of value) {
    if (UNRESERVED.test(ch) || (allowReserved && RESERVED.test(ch))) out += ch;
    else
      out += [...new TextEncoder().encode(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** RFC 6570 expansion of the forms linkifier templates use: {var}, {+var}, {#var}. */
export function expandUrlTemplate(template: string, values: Record<string, string | undefined>): string {
  return template.replace(/\{([+#]?)([\w.,]+)\}/g, (_whole, op: string, names: string) => {
    const parts = names
      .split(',')
      .map((n) => values[n])
      .filter((v): v is string => v !== undefined);
    const encoded = parts.map((v) => encodeValue(v, op !== '')).join(',');
    return op === '#' && encoded ? `#${encoded}` : encoded;
  });
}

function urlFor(c: CompiledLinkifier, m: Matcher): string {
  const values: Record<string, string | undefined> = {};
  for (const [name, index] of Object.entries(c.groups)) values[name] = m.group(index) ?? undefined;
  return expandUrlTemplate(c.linkifier.url_template, values);
}

export function linkifierExtension(compiled: CompiledLinkifier[]): TokenizerAndRendererExtension {
  /** The last text scanned for a match, and where the first match in it starts (-1: none). */
  let scanned = '';
  let found = -1;
  return {
    name: 'zulipLinkifier',
    level: 'inline',
    start(src) {
      // marked asks again for each shorter tail of the same text: the answer found in a longer
      // text still holds while that match lies ahead, so a text is scanned once, not once per
      // token (which was quadratic: a second for 10,000 characters).
      const offset = scanned.length - src.length;
      if (offset >= 0 && (found < 0 || found >= offset) && scanned.endsWith(src))
        return found < 0 ? undefined : found - offset;
      let first = -1;
      for (const c of compiled) {
        const m = c.regex.matcher(src);
        if (m.find() && m.end(1) > m.start(1) && (first < 0 || m.start(1) < first)) first = m.start(1);
      }
      scanned = src;
      found = first;
      return first < 0 ? undefined : first;
    },
    tokenizer(src, tokens): LinkifierToken | undefined {
      if (this.lexer.state.inLink || !atWordStart(tokens)) return undefined;
      // Nothing starts before the first match of the last scan (matching is leftmost-first).
      const offset = scanned.length - src.length;
      if (offset >= 0 && (found < 0 || offset < found) && scanned.endsWith(src)) return undefined;
      for (const c of compiled) {
        const m = c.regex.matcher(src);
        if (!m.lookingAt()) continue;
        const text = m.group(1) ?? '';
        if (text === '') continue;
        const url = escapeHtml(urlFor(c, m));
        return { type: 'zulipLinkifier', raw: text, html: `<a href="${url}">${escapeHtml(text)}</a>` };
      }
      return undefined;
    },
    renderer: (token) => (token as LinkifierToken).html,
  };
}

/**
 * Topics in which a set of compiled linkifiers (and the plain URL pattern) found nothing: most
 * topics link nowhere, and matching each again cost every message dict (a message event, a
 * webhook call) about 2 µs. Only the empty answer is kept: it does not depend on the URL
 * templates, which a linkifier's update may change without compiling anew. Bounded per set.
 */
const LINKLESS = new WeakMap<CompiledLinkifier[], Set<string>>();
const MAX_LINKLESS = 1000;

/** A message event's topic_links: what the linkifiers and plain URLs in a topic link to. */
export function topicLinks(store: Store, topic: string): Array<{ text: string; url: string }> {
  const compiled = compileLinkifiers(store);
  let linkless = LINKLESS.get(compiled);
  if (linkless?.has(topic)) return [];
  const links = findTopicLinks(compiled, topic);
  if (!links.length) {
    if (!linkless) LINKLESS.set(compiled, (linkless = new Set()));
    else if (linkless.size >= MAX_LINKLESS) linkless.clear();
    linkless.add(topic);
  }
  return links;
}

function findTopicLinks(compiled: CompiledLinkifier[], topic: string): Array<{ text: string; url: string }> {
  const found: Array<{ index: number; text: string; url: string }> = [];
  for (const c of compiled) {
    const m = c.regex.matcher(topic);
    let from = 0;
    while (from <= topic.length && m.find(from)) {
      const index = m.start(1);
      const text = m.group(1) ?? '';
      // Past this match (its trailing character may start the next one); an empty match moves on by one.
      from = Math.max(m.end(1), index + 1);
      if (text === '' || (index > 0 && !/[\s'"(,:<]/.test(topic[index - 1]))) continue;
      found.push({ index, text, url: urlFor(c, m) });
    }
  }
  for (const m of topic.matchAll(/https?:\/\/[^\s<>"]+/g)) found.push({ index: m.index, text: m[0], url: m[0] });
  return found.sort((a, b) => a.index - b.index).map(({ text, url }) => ({ text, url }));
}
