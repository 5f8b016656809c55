// The level table of the manual (README.md or docs/) lists every behaviour row of
// openapi/behaviours.yaml: a behaviour that changes with the level and is not in the table is one
// a client team cannot find.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { behaviours } from '../../src/contract/behaviours.js';

const ROOT = path.join(import.meta.dirname, '..', '..');

/** The levels in the first cell of every table row of the README and the docs folder. */
function tableLevels(): Set<number> {
  const files = [path.join(ROOT, 'README.md')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name.endsWith('.md')) files.push(path.join(dir, entry.name));
    }
  };
  if (existsSync(path.join(ROOT, 'docs'))) walk(path.join(ROOT, 'docs'));
  const levels = new Set<number>();
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const cell = line.match(/^\|\s*([\d,\s]+)\s*\|/);
      if (cell) for (const n of cell[1].split(',')) if (n.trim()) levels.add(Number(n));
    }
  }
  return levels;
}

describe('the level table', () => {
  it('has a row for the level of every behaviour of openapi/behaviours.yaml', () => {
    const levels = tableLevels();
    const missing = Object.entries(behaviours())
      .filter(([, b]) => !levels.has(b.level))
      .map(([k, b]) => `${k} (${b.level})`);
    expect(missing).toEqual([]);
  });
});
