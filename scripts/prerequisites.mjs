// What the test suite needs beyond npm packages: Chromium for the browser tests and Python 3
// with pytest and requests for the Python example. Shared by scripts/test-prerequisites.mjs
// (run first by `npm test`) and by the tests that use them, so both find the same programs.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

const isExecutable = (file) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** `name` looked up on PATH (or as given when it contains a slash), or null. */
export function which(name, env = process.env) {
  if (name.includes('/')) return isExecutable(name) ? name : null;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

/**
 * The browser for the browser tests: CHROMIUM_PATH when set (it must exist), else Debian's
 * /usr/bin/chromium, else the usual names on PATH.
 * @returns {{ path: string } | { missing: string }}
 */
export function findChromium(env = process.env) {
  if (env.CHROMIUM_PATH) {
    return isExecutable(env.CHROMIUM_PATH)
      ? { path: env.CHROMIUM_PATH }
      : { missing: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file` };
  }
  for (const candidate of ['/usr/bin/chromium', ...CHROMIUM_NAMES]) {
    const found = which(candidate, env);
    if (found) return { path: found };
  }
  return { missing: `no Chromium found (looked for /usr/bin/chromium, ${CHROMIUM_NAMES.join(', ')} on PATH)` };
}

const pythonHasModules = (python) =>
  spawnSync(python, ['-c', 'import pytest, requests'], { stdio: 'ignore' }).status === 0;

/**
 * A Python 3 that can import pytest and requests: PYTHON when set (it must), else python3 on
 * PATH, else Debian's /usr/bin/python3.
 * @returns {{ path: string } | { missing: string }}
 */
export function findPython(env = process.env) {
  if (env.PYTHON) {
    return pythonHasModules(env.PYTHON)
      ? { path: env.PYTHON }
      : { missing: `PYTHON=${env.PYTHON} cannot import pytest and requests` };
  }
  for (const candidate of ['python3', '/usr/bin/python3']) {
    const found = which(candidate, env);
    if (found && pythonHasModules(found)) return { path: found };
  }
  return { missing: 'no Python 3 with pytest and requests found' };
}

/** What each prerequisite is and which Debian packages provide it. */
export const PREREQUISITES = [
  { name: 'Chromium', find: findChromium, packages: ['chromium'], override: 'CHROMIUM_PATH' },
  {
    name: 'Python 3 with pytest and requests',
    find: findPython,
    packages: ['python3', 'python3-pytest', 'python3-requests'],
    override: 'PYTHON',
  },
];

/**
 * What to do about the missing ones: install their Debian packages when we can (root, apt-get
 * on PATH, and no override naming a program that is not there), else stop with one line.
 * @param {{ name: string, packages: string[], override: string, missing: string }[]} missing
 * @param {{ isRoot: boolean, aptGet: string | null, env: Record<string, string | undefined> }} host
 * @returns {{ ok: true } | { install: string[], aptGet: string } | { error: string }}
 */
export function plan(missing, host) {
  if (!missing.length) return { ok: true };
  const packages = missing.flatMap((m) => m.packages);
  const overridden = missing.find((m) => host.env[m.override]);
  if (!overridden && host.isRoot && host.aptGet) return { install: packages, aptGet: host.aptGet };
  const why = missing.map((m) => m.missing).join('; ');
  const how = overridden
    ? `fix ${overridden.override} or unset it`
    : `install them (apt-get install ${packages.join(' ')}) or set ${missing.map((m) => m.override).join(' / ')}`;
  return { error: `npm test: ${why}: ${how}` };
}
