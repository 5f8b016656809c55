// The organization's linkifiers as a marked extension: text matching a linkifier's pattern
// becomes a link to its URL template, filled with the pattern's named groups. Linkifiers apply in
// the organization's order (the first that matches at a position wins), never inside a link or
// code, and only to whole words, as on the real server.
import type { TokenizerAndRendererExtension, Tokens } from 'marked';
import type { Store } from '../../store/store.js';
import type { Linkifier } from '../../store/state.js';
import { escapeHtml } from './html.js';
import { atWordStart } from './render-state.js';
import { DerivedSlot } from '../../store/derived.js';

interface CompiledLinkifier {
  linkifier: Linkifier;
  /** Anchored at the current position (sticky). */
  here: RegExp;
  /** Finds the next match anywhere (global). */
  search: RegExp;
}

type LinkifierToken = Tokens.Generic & { html: string };

/** Python's named-group syntax, which linkifier patterns use, in JavaScript's spelling. */
function toJsPattern(pattern: string): string {
  return pattern.replace(/\(\?P<(\w+)>/g, '(?<$1>').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
}

function compile(linkifier: Linkifier): CompiledLinkifier | null {
  // A match must end at a word boundary (the real server's trailing (?!\w)).
  const source = `(?:${toJsPattern(linkifier.pattern)})(?!\\w)`;
  for (const flags of ['u', '']) {
    try {
      return { linkifier, here: new RegExp(source, `y${flags}`), search: new RegExp(source, `g${flags}`) };
    } catch {
      // Try again without the unicode flag; a pattern valid in neither is skipped.
    }
  }
  return null;
}

/** Compiled once per set of linkifiers (every render needs them; compiling cost more than rendering). */
const COMPILED = new DerivedSlot(() => ({ kept: null as { rows: Linkifier[]; patterns: string[]; compiled: CompiledLinkifier[] } | null }));

export function compileLinkifiers(store: Store): CompiledLinkifier[] {
  const rows = store.linkifiers.all();
  const last = store.derived.of(COMPILED);
  const hit = last.kept;
  if (hit && hit.rows.length === rows.length && rows.every((l, i) => hit.rows[i] === l && hit.patterns[i] === l.pattern)) return hit.compiled;
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
    else out += [...new TextEncoder().encode(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** RFC 6570 expansion of the forms linkifier templates use: {var}, {+var}, {#var}. */
export function expandUrlTemplate(template: string, values: Record<string, string | undefined>): string {
  return template.replace(/\{([+#]?)([\w.,]+)\}/g, (_whole, op: string, names: string) => {
    const parts = names.split(',').map((n) => values[n]).filter((v): v is string => v !== undefined);
    const encoded = parts.map((v) => encodeValue(v, op !== '')).join(',');
    return op === '#' && encoded ? `#${encoded}` : encoded;
  });
}

function urlFor(c: CompiledLinkifier, m: RegExpExecArray): string {
  return expandUrlTemplate(c.linkifier.url_template, { ...(m.groups ?? {}) });
}

export function linkifierExtension(compiled: CompiledLinkifier[]): TokenizerAndRendererExtension {
  return {
    name: 'zulipLinkifier',
    level: 'inline',
    start(src) {
      let first = -1;
      for (const c of compiled) {
        c.search.lastIndex = 0;
        const m = c.search.exec(src);
        if (m && m[0] !== '' && (first < 0 || m.index < first)) first = m.index;
      }
      return first < 0 ? undefined : first;
    },
    tokenizer(src, tokens): LinkifierToken | undefined {
      if (this.lexer.state.inLink || !atWordStart(tokens)) return undefined;
      for (const c of compiled) {
        c.here.lastIndex = 0;
        const m = c.here.exec(src);
        if (!m || m[0] === '') continue;
        const url = escapeHtml(urlFor(c, m));
        return { type: 'zulipLinkifier', raw: m[0], html: `<a href="${url}">${escapeHtml(m[0])}</a>` };
      }
      return undefined;
    },
    renderer: (token) => (token as LinkifierToken).html,
  };
}

/** A message event's topic_links: what the linkifiers and plain URLs in a topic link to. */
export function topicLinks(store: Store, topic: string): Array<{ text: string; url: string }> {
  const found: Array<{ index: number; text: string; url: string }> = [];
  for (const c of compileLinkifiers(store)) {
    c.search.lastIndex = 0;
    for (const m of topic.matchAll(c.search)) {
      if (m[0] === '' || (m.index > 0 && !/[\s'"(,:<]/.test(topic[m.index - 1]))) continue;
      found.push({ index: m.index, text: m[0], url: urlFor(c, m as RegExpExecArray) });
    }
  }
  for (const m of topic.matchAll(/https?:\/\/[^\s<>"]+/g)) found.push({ index: m.index, text: m[0], url: m[0] });
  return found.sort((a, b) => a.index - b.index).map(({ text, url }) => ({ text, url }));
}
