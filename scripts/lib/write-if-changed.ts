// Generated files are rewritten only when their text changes, so that tools that compare
// modification times (the incremental build, watchers) see no change when nothing changed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function writeIfChanged(file: string, text: string): void {
  let before = '';
  try {
    before = readFileSync(file, 'utf8');
  } catch {
    /* first run */
  }
  if (text === before) return;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  console.error(`wrote ${path.relative(process.cwd(), file)}`);
}
