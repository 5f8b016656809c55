// The manual holds together: the README stays short, every command, flag, variable, control call
// and header the README documented before the manual moved to docs/ is still documented, every
// flag the program takes is explained in prose (not only in the generated reference), and every
// relative link of README.md, docs/, ARCHITECTURE.md and SECURITY.md reaches a file and, when it
// names one, a heading.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, anchors, links, manualFiles, read } from './markdown.js';

/** What the 775-line README documented, listed once from it (see its `source`). */
const OLD = JSON.parse(readFileSync(path.join(ROOT, 'test/docs/old-readme-terms.json'), 'utf8')) as Record<
  string,
  string[]
>;
const TERM_LISTS = ['flags', 'npmCommands', 'subcommands', 'environment', 'controlPaths', 'headers'];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A term stands on its own: `--data` is not found inside `--data-urlencode`, nor `/__mock` inside `/__mock/ui` only. */
const mentions = (text: string, term: string) => new RegExp(`(?<![\\w-])${escape(term)}(?![\\w-])`).test(text);

describe('the manual', () => {
  const files = manualFiles();
  const everything = files.map(read).join('\n');

  it('keeps the README to at most 250 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(250);
  });

  it.each(TERM_LISTS)("still documents every one of the old README's %s", (list) => {
    expect(OLD[list].length).toBeGreaterThan(0);
    expect(OLD[list].filter((term) => !mentions(everything, term))).toEqual([]);
  });

  it('explains every flag of --help outside the generated reference', () => {
    const reference = read('docs/reference/cli.md');
    const flags = new Set([...reference.matchAll(/^ {2}(?:-\w, )?(--[a-z][\w-]*)/gm)].map((m) => m[1]));
    flags.delete('--help');
    expect(flags.size).toBeGreaterThan(20);
    const prose = files
      .filter((f) => f !== 'docs/reference/cli.md')
      .map(read)
      .join('\n');
    expect([...flags].filter((flag) => !mentions(prose, flag))).toEqual([]);
  });

  it('has no relative link to a missing file or heading (ARCHITECTURE.md and SECURITY.md included)', () => {
    const broken: string[] = [];
    for (const file of [...files, 'ARCHITECTURE.md', 'SECURITY.md']) {
      for (const target of links(read(file))) {
        if (/^[a-z][\w+.-]*:/i.test(target)) continue; // https:, mailto: ...
        const [pathPart, anchor] = target.split('#');
        const resolved = pathPart ? path.join(path.dirname(file), pathPart) : file;
        if (!existsSync(path.join(ROOT, resolved))) {
          broken.push(`${file}: ${target} (no ${resolved})`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchors(read(resolved)).has(anchor))
          broken.push(`${file}: ${target} (no heading #${anchor})`);
        if (!anchor && statSync(path.join(ROOT, resolved)).isDirectory()) broken.push(`${file}: ${target} (a folder)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("links every page of docs/ from the manual's index or the README", () => {
    const index = links(read('docs/README.md')).map((l) => path.join('docs', l.split('#')[0]));
    const fromReadme = links(read('README.md')).map((l) => l.split('#')[0]);
    const decisions = links(read('docs/decisions/README.md')).map((l) => path.join('docs/decisions', l.split('#')[0]));
    const linked = new Set([...index, ...fromReadme, ...decisions, 'docs/README.md']);
    expect(files.filter((f) => f !== 'README.md' && !linked.has(f))).toEqual([]);
  });
});
