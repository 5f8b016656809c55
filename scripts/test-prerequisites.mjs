// First step of `npm test`: makes sure Chromium (browser tests) and Python with pytest and
// requests (the Python example) are there. When one is missing and this user can install Debian
// packages, installs them with apt-get; otherwise stops at once with one line saying what to do,
// rather than letting the suites that need them fail one by one.
import { spawnSync } from 'node:child_process';
import { PREREQUISITES, plan, which } from './prerequisites.mjs';

const missing = [];
for (const p of PREREQUISITES) {
  const found = p.find();
  if ('missing' in found) missing.push({ ...p, missing: found.missing });
}
const todo = plan(missing, { isRoot: process.getuid?.() === 0, aptGet: which('apt-get'), env: process.env });

if ('error' in todo) {
  console.error(todo.error);
  process.exit(1);
}
if ('install' in todo) {
  console.error(`npm test: installing Debian packages for the tests: ${todo.install.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => spawnSync(todo.aptGet, args, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
  if (!apt(['update', '-qq']) || !apt(['install', '-y', '-qq', ...todo.install])) {
    console.error(`npm test: apt-get install ${todo.install.join(' ')} failed`);
    process.exit(1);
  }
  for (const p of missing) {
    const found = p.find();
    if ('missing' in found) {
      console.error(`npm test: still missing after the install: ${found.missing}`);
      process.exit(1);
    }
  }
}
