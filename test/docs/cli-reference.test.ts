// docs/reference/cli.md is what the program's --help prints today: a changed or new option
// fails here until `npm run gen:cli-reference` writes the reference again.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from './markdown.js';

const run = promisify(execFile);

it('docs/reference/cli.md matches --help', async () => {
  const outcome = await run(process.execPath, [path.join(ROOT, 'scripts/generate-cli-reference.mjs'), '--check'], {
    cwd: ROOT,
  }).then(
    () => 'current',
    (err: { stderr?: string }) => err.stderr?.trim() ?? String(err),
  );
  expect(outcome).toBe('current');
}, 120_000);
