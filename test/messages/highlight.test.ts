// Search highlighting skips text nodes that cannot hold a hit and keeps its last result per
// message: both must leave the result exactly what wrapping every matching word gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlight, parseSearch, stem } from '../../src/domain/messages/search.js';
import { escapeHtml, unescapeHtml } from '../../src/domain/render/html.js';
import { Store } from '../../src/store/store.js';
import { defaultFixturePath, readStateFile } from '../../src/store/fixture.js';

/** The plain definition: every word whose stem the query has, wrapped, in every text node. */
function reference(html: string, stems: Set<string>): string {
  if (!stems.size) return html;
  return html.replace(/(<[^>]*>)|([^<]+)/g, (_w, tag: string | undefined, raw: string | undefined) => {
    if (tag) return tag;
    const text = unescapeHtml(raw!);
    let out = '';
    let last = 0;
    let hit = false;
    for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
      if (!stems.has(stem(m[0]))) continue;
      hit = true;
      out += `${escapeHtml(text.slice(last, m.index))}<span class="highlight">${escapeHtml(m[0])}</span>`;
      last = m.index + m[0].length;
    }
    return hit ? out + escapeHtml(text.slice(last)) : raw!;
  });
}

const WORDS = [
  'lighthouse',
  'Lighthouses',
  'party',
  'parties',
  'shine',
  'shining',
  'tests',
  'tested',
  'box',
  'boxes',
  'ΟΔΟΣ',
  'οδός',
  'Ünïcode',
  'release',
  'released',
  'a',
  'x',
  'the',
  'crème',
  '42',
];
const piece = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.constantFrom(
    ' ',
    ', ',
    '&amp;',
    '&lt;',
    '&#39;',
    '<strong>',
    '</strong>',
    '<a href="/lighthouse">',
    '</a>',
    '<p>',
    '</p>',
    '\n',
  ),
);

describe('highlight', () => {
  it('gives what wrapping every matching word gives, for any text and query', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }),
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
        (pieces, words) => {
          const html = pieces.join('');
          const query = parseSearch(words.join(' '));
          expect(highlight(html, query)).toBe(reference(html, query.stems));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a kept result is used only for the same HTML and the same words', () => {
    const message = { store: new Store(readStateFile(defaultFixturePath())), message: {} };
    const q1 = parseSearch('lighthouse');
    const q2 = parseSearch('party');
    const html = '<p>The lighthouse party</p>';
    expect(highlight(html, q1, message)).toBe('<p>The <span class="highlight">lighthouse</span> party</p>');
    expect(highlight(html, q2, message)).toBe('<p>The lighthouse <span class="highlight">party</span></p>');
    expect(highlight('<p>Parties at the lighthouses</p>', q2, message)).toBe(
      '<p><span class="highlight">Parties</span> at the lighthouses</p>',
    );
    // Content and subject of one message are kept apart.
    expect(highlight('lighthouse keepers', q1, message, 'subject')).toBe(
      '<span class="highlight">lighthouse</span> keepers',
    );
    expect(highlight(html, q1, message)).toBe('<p>The <span class="highlight">lighthouse</span> party</p>');
  });
});
