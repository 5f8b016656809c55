// Reading the manual's Markdown in tests: its files, their links and their headings' anchors.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** README.md and every Markdown file under docs/, relative to the repository root. */
export function manualFiles(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name));
  return ['README.md', ...docs.sort()];
}

export const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

/** The text outside fenced code blocks: a link or heading inside a code sample is not one. */
function prose(markdown: string): string {
  // Fenced blocks of either kind (a ~~~ fence may hold ``` lines) are code, not prose.
  return markdown.replace(/^~~~[\s\S]*?^~~~/gm, '').replace(/^```[\s\S]*?^```/gm, '');
}

/** Targets of inline links `[text](target)`, images included; inline code spans are skipped. */
export function links(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}
