// Writes src/domain/emoji/emoji-names.json: every Unicode emoji name the real server accepts
// (canonical names and aliases) with its code point, and the server's extra emoji. Run by hand when
// the server's names change; the output is committed, so neither the build nor the tests need the
// inputs:
//
//   npx tsx scripts/generate-emoji-names.ts /tmp/custom_emoji_names.py
//
// How the real server (zulip/zulip, tools/setup/emoji/) builds its table, which this reproduces:
// - Its emoji are the entries of the npm package emoji-datasource-google's emoji.json (the server
//   pins ^16.0.0; the image-less `emoji-datasource` 16.0.0 used here ships a byte-identical
//   emoji.json), minus the clock faces other than 1f557 and the five skin-tone modifiers. An
//   emoji's code is its `unified` sequence, lower case, without U+FE0F.
// - A hand-curated map (`custom_emoji_names.py`: code -> canonical_name and aliases) names 1,047
//   of them. Its own names are kept exactly, hyphens included (`jack-o-lantern`).
// - Every other emoji is named from Unicode CLDR's English annotations (npm cldr-annotations-full
//   and cldr-annotations-derived-full, which the server pins at ^48.0.0; 48.2.0 here), looked up
//   by its characters without U+FE0F: the text-to-speech name becomes the canonical name, the
//   keywords the aliases, each lower-cased with spaces and dashes turned to `_`, quotes, colons,
//   dots, commas and parentheses dropped, `&` spelled `and`, and runs of `_` squeezed. An emoji
//   CLDR does not know gets no name.
// - Canonical names must be unique (the generator stops otherwise). An alias equal to any
//   canonical name is dropped; an alias CLDR gives to several emoji is dropped from all of them
//   except the curated ones. A name with accented letters (piñata) also gets its plain ASCII
//   spelling as an alias, taken from any other emoji that had it; four Japanese keywords (ココ, サ,
//   指, 空) stay as they are.
// - The name -> code table is then every emoji's canonical name and aliases, in emoji.json order,
//   a later emoji winning a name an earlier one also has.
//
// The argument is a local copy of the server's curated map, zulip/zulip
// `tools/setup/emoji/custom_emoji_names.py`; it is not committed here. Built from the version of
// the server's main branch after its change (zulip/zulip#32712, opened Dec 2024) that made
// `smile` 1f604 and `slight_smile` 1f642 (before it, `smile` was 1f642 and 1f604 `big_smile`).
//
// What may differ from a given real server: the server commits its generated emoji_names.py, so a
// server built from other package versions (an older emoji-datasource, an older CLDR) has fewer
// emoji or other CLDR-derived names; and the curated map changes from release to release. The rule
// was checked against the server's generated emoji_names.py of Nov 2022 (from emoji-datasource
// 14.0.0, cldr-annotations-modern 41.0.0 and that day's curated map): with that release's two
// older details (codes and CLDR keys from `non_qualified`, and commas, parentheses and apostrophes
// kept in names) all 2,877 names and 1,816 emoji came out the same. With today's rule and inputs
// the table has about 3,340 names for about 1,880 emoji. Not verified: that the curated map used
// (zulip/zulip commit 89d5d87, after the smile rename) is the newest, and that CLDR 48.2.0 is the
// exact 48.x the server's lock file holds.
//
// --emoji-data, --cldr and --cldr-derived name other copies of the three packages' files, --out
// another output file.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeIfChanged } from './lib/write-if-changed.js';

const ROOT = path.join(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'src', 'domain', 'emoji', 'emoji-names.json');
/** The server's own emoji (reaction type zulip_extra_emoji), not in any Unicode table. */
const EXTRA = ['zulip'];
/** Clock faces the server leaves unnamed: every one but 1f557 (its `time`). */
const UNNAMED_CLOCKS = new Set([...range(0x1f550, 0x1f556), ...range(0x1f558, 0x1f567)].map((c) => c.toString(16)));
/** Skin-tone modifiers are never emoji on their own. */
const SKIN_TONES = new Set(range(0x1f3fb, 0x1f3ff).map((c) => c.toString(16)));
/** CLDR keywords the server keeps without an ASCII spelling (the emoji has ASCII aliases). */
const KEPT_NON_ASCII = new Set(['ココ', 'サ', '指', '空']);
/** Accented letters the server spells plainly for the extra ASCII alias. */
const PLAIN_LETTERS: Record<string, string> = {
  è: 'e',
  ǐ: 'i',
  ó: 'o',
  ā: 'a',
  ō: 'o',
  ñ: 'n',
  ô: 'o',
  ç: 'c',
  é: 'e',
  ã: 'a',
  í: 'i',
  å: 'a',
  ü: 'u',
};

type Names = { canonical: string; aliases: string[] };
type EmojiEntry = { unified: string };
type Annotation = { default?: string[]; tts?: string[] };

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'emoji-data': { type: 'string' },
    cldr: { type: 'string' },
    'cldr-derived': { type: 'string' },
    out: { type: 'string' },
  },
});
const curatedFile = positionals[0];
if (!curatedFile)
  throw new Error(
    'usage: tsx scripts/generate-emoji-names.ts <custom_emoji_names.py> [--emoji-data F] [--cldr F] [--cldr-derived F] [--out F]',
  );

const require = createRequire(import.meta.url);
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const emojiData = readJson(values['emoji-data'] ?? require.resolve('emoji-datasource/emoji.json')) as EmojiEntry[];
const plain = readJson(values.cldr ?? require.resolve('cldr-annotations-full/annotations/en/annotations.json')) as {
  annotations: { annotations: Record<string, Annotation> };
};
const derived = readJson(
  values['cldr-derived'] ?? require.resolve('cldr-annotations-derived-full/annotationsDerived/en/annotations.json'),
) as { annotationsDerived: { annotations: Record<string, Annotation> } };
// Derived annotations (sequences, flags) win over plain ones for the same characters.
const cldr = new Map<string, Annotation>([
  ...Object.entries(plain.annotations.annotations),
  ...Object.entries(derived.annotationsDerived.annotations),
]);
const curated = parseCuratedMap(readFileSync(curatedFile, 'utf8'));
if (curated.size < 500) throw new Error(`${curatedFile}: found ${curated.size} curated emoji, expected the whole map`);

const table = nameTable(emojiData, cldr, curated);
const names: Record<string, string> = {};
for (const [code, { canonical, aliases }] of table) for (const name of [canonical, ...aliases]) names[name] = code;
const sorted = Object.fromEntries(Object.entries(names).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
writeIfChanged(values.out ?? OUT, `${JSON.stringify({ unicode: sorted, extra: EXTRA }, null, 1)}\n`);
console.error(`${Object.keys(sorted).length} names for ${table.size} emoji (${curated.size} curated)`);

/** code -> names, in emoji.json order, by the server's rules (see the header). */
function nameTable(
  data: EmojiEntry[],
  annotations: Map<string, Annotation>,
  custom: Map<string, Names>,
): Map<string, Names> {
  const out = new Map<string, Names>();
  const canonicals = new Set<string>();
  const claim = (name: string, code: string) => {
    if (canonicals.has(name)) throw new Error(`canonical name ${name} of ${code} is already taken`);
    canonicals.add(name);
  };
  for (const entry of data) {
    const parts = entry.unified
      .toLowerCase()
      .split('-')
      .filter((p) => p !== 'fe0f');
    const code = parts.join('-');
    if (UNNAMED_CLOCKS.has(code) || SKIN_TONES.has(code)) continue;
    const own = custom.get(code);
    if (own) {
      claim(cleanName(own.canonical), code);
      out.set(code, { canonical: own.canonical, aliases: [...own.aliases] });
      continue;
    }
    const note = annotations.get(String.fromCodePoint(...parts.map((p) => parseInt(p, 16))));
    if (!note?.tts) continue;
    if (note.tts.length !== 1) throw new Error(`${code}: CLDR gives ${note.tts.length} spoken names`);
    const canonical = cleanName(note.tts[0].trim());
    claim(canonical, code);
    out.set(code, { canonical, aliases: (note.default ?? []).map((k) => cleanName(k.trim())) });
  }

  // Aliases that are someone's canonical name go; the rest are counted once per occurrence.
  const holders = new Map<string, string[]>();
  for (const [code, names] of out) {
    names.aliases = names.aliases.filter((alias) => {
      if (canonicals.has(alias)) return false;
      holders.set(alias, [...(holders.get(alias) ?? []), code]);
      return true;
    });
  }
  for (const [alias, codes] of holders) {
    if (codes.length < 2) continue;
    for (const code of codes) if (!custom.has(code)) removeOnce(out.get(code)!.aliases, alias, code);
  }
  for (const [code, names] of out) {
    for (const name of [names.canonical, ...names.aliases]) {
      if (KEPT_NON_ASCII.has(name) || isAscii(name)) continue;
      const plain = [...name].map((c) => PLAIN_LETTERS[c] ?? c).join('');
      if (!isAscii(plain)) throw new Error(`${code}: no plain spelling for ${name}`);
      for (const other of holders.get(plain) ?? []) removeOnce(out.get(other)!.aliases, plain, other);
      names.aliases.push(plain);
    }
  }
  return out;
}

function removeOnce(list: string[], name: string, code: string): void {
  const i = list.indexOf(name);
  if (i < 0) throw new Error(`${code}: alias ${name} was already removed`);
  list.splice(i, 1);
}

function isAscii(s: string): boolean {
  return /^[\x00-\x7f]*$/.test(s);
}

/** The server's spelling of a CLDR name as an emoji name. */
function cleanName(name: string): string {
  return name
    .replace(/[ \-–]/g, '_')
    .replace(/[“”:.,()‘’']/g, '')
    .replace(/&/g, 'and')
    .replace(/_{2,}/g, '_')
    .toLowerCase();
}

/**
 * The curated map from the server's Python source: `"code": {"canonical_name": "...", "aliases":
 * [...]}` entries, on one line or several. Comments go first: commented-out entries are not names.
 */
function parseCuratedMap(source: string): Map<string, Names> {
  const code = stripComments(source);
  const map = new Map<string, Names>();
  const entry =
    /['"]([0-9a-f-]+)['"]\s*:\s*\{\s*['"]canonical_name['"]\s*:\s*['"]([^'"]+)['"]\s*,\s*['"]aliases['"]\s*:\s*\[([^\]]*)\]\s*,?\s*\}/g;
  for (const m of code.matchAll(entry)) {
    map.set(m[1], { canonical: m[2], aliases: [...m[3].matchAll(/['"]([^'"]+)['"]/g)].map((a) => a[1]) });
  }
  return map;
}

/** Drops `#` comments outside string literals. */
function stripComments(source: string): string {
  let out = '';
  let quote = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
      out += '\n';
      continue;
    }
    out += c;
  }
  return out;
}
