// The journal after a million requests, measured in a child process of its own (--expose-gc).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/mock.js';
import type { Sample } from '../journal-memory.js';

export interface JournalMemory {
  checkpoints: Array<{ requests: number; heap_mb: number; entries: number; journal_estimate_mb: number }>;
  us_per_record: number;
  rss_mb: number;
}

export function journalMemory(
  dir: string,
  samples: Sample[],
  count = 1_000_000,
  label = 'samples',
): JournalMemory | { error: string } {
  const file = path.join(dir, `journal-${label}.json`);
  writeFileSync(file, JSON.stringify(samples));
  const r = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', path.join(ROOT, 'bench/journal-memory.ts'), file, String(count)],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as JournalMemory;
  } catch {
    return { error: `journal measurement failed (${r.status}): ${(r.stderr || r.stdout).slice(-500)}` };
  }
}
