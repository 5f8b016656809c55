// The Python example (examples/python) passes: its pytest fixture starts the mock (here through
// `npm start`'s script, which builds only when a source changed), resets it per test, activates a
// scenario and verifies through the journal.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { findPython } from '../../scripts/prerequisites.mjs';
import { ROOT } from '../helpers/cli.js';

it('the pytest example passes against the mock', async () => {
  const python = findPython();
  if ('missing' in python) throw new Error(`${python.missing}: run npm test, which installs it`);
  const { stdout } = await promisify(execFile)(
    python.path,
    ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', path.join(ROOT, 'examples/python')],
    {
      cwd: path.join(ROOT, 'examples/python'),
      env: { ...process.env, TEAMCHAT_MOCK: `${process.execPath} ${path.join(ROOT, 'scripts/start.mjs')}` },
      timeout: 150_000,
    },
  );
  expect(stdout).toMatch(/^3 passed in [\d.]+s$/m);
}, 180_000);
