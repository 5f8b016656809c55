// Writes src/domain/users/emoji-names.json: every Unicode emoji name the real server accepts
// (canonical names and aliases) with its code point, and the server's extra emoji. Run once by
// hand when the server's names change; the output is committed, so neither the build nor the tests
// need the inputs:
//
//   npx tsx scripts/generate-emoji-names.ts /tmp/emoji_names.py
//
// The argument is a local copy of the server's name table, in either of its two public forms:
// zulip/zulip `tools/setup/emoji/emoji_names.py` (code point -> canonical_name and aliases) or
// zulip/zulip-terminal `zulipterminal/unicode_emojis.py`, which the Zulip team generates from the
// server's table (name -> code and aliases). Neither is committed here. The server only offers a
// name whose image exists, so a code point must also be in the npm package `emoji-datasource`.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.join(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'src', 'domain', 'users', 'emoji-names.json');
/** The server's own emoji (reaction type zulip_extra_emoji), not in any Unicode table. */
const EXTRA = ['zulip'];

const source = process.argv[2];
if (!source) throw new Error('usage: tsx scripts/generate-emoji-names.ts <emoji_names.py | unicode_emojis.py>');
const text = readFileSync(source, 'utf8');

const list = (s: string) => [...s.matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1]);
/** name -> code, canonical names first so that an alias never hides one. */
const entries: { code: string; canonical: string; aliases: string[] }[] = [];
// emoji_names.py: '1f642': {'canonical_name': 'smile', 'aliases': [...]}
for (const m of text.matchAll(/['"]([0-9a-f-]+)['"]\s*:\s*\{\s*['"]canonical_name['"]\s*:\s*['"]([^'"]+)['"]\s*,\s*['"]aliases['"]\s*:\s*\[([^\]]*)\]/g)) {
  entries.push({ code: m[1], canonical: m[2], aliases: list(m[3]) });
}
// unicode_emojis.py: ("smile", {'code': '1f642', 'aliases': [...]})
for (const m of text.matchAll(/\(\s*['"]([^'"]+)['"]\s*,\s*\{\s*['"]code['"]\s*:\s*['"]([0-9a-f-]+)['"]\s*,\s*['"]aliases['"]\s*:\s*\[([^\]]*)\]/g)) {
  entries.push({ code: m[2], canonical: m[1], aliases: list(m[3]) });
}
if (entries.length < 500) throw new Error(`${source}: found ${entries.length} emoji, expected a whole table`);

// emoji-datasource names a code point fully qualified (263a-fe0f) and, where that differs, as the
// server does (263a); both forms count.
const require = createRequire(import.meta.url);
const datasource = require('emoji-datasource/emoji.json') as { unified: string; non_qualified: string | null }[];
const known = new Set<string>();
for (const e of datasource) {
  for (const c of [e.unified, e.non_qualified]) if (c) known.add(c.toLowerCase());
  known.add(e.unified.toLowerCase().replace(/-fe0f/g, ''));
}

const names: Record<string, string> = {};
let dropped = 0;
for (const { code, canonical } of entries) {
  if (!known.has(code)) { dropped++; continue; }
  names[canonical] = code;
}
for (const { code, aliases } of entries) {
  if (!known.has(code)) continue;
  for (const a of aliases) if (!Object.hasOwn(names, a)) names[a] = code;
}
const sorted = Object.fromEntries(Object.entries(names).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(OUT, `${JSON.stringify({ unicode: sorted, extra: EXTRA }, null, 1)}\n`);
console.log(`${OUT}: ${Object.keys(sorted).length} names for ${new Set(Object.values(sorted)).size} code points (${dropped} unknown code points dropped)`);
