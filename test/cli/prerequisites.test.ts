// npm test's first step (scripts/test-prerequisites.mjs): which browser and Python it finds, when
// it installs Debian's packages and when it stops with one line. "Missing" is simulated by
// naming programs that do not exist, never by uninstalling anything.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium, findPython, plan, PREREQUISITES } from '../../scripts/prerequisites.mjs';
import { ROOT } from '../helpers/cli.js';

const chromium = PREREQUISITES[0];
const python = PREREQUISITES[1];
const missingChromium = { ...chromium, missing: 'no Chromium found' };
const missingPython = { ...python, missing: 'no Python 3 with pytest and requests found' };

describe('finding the programs', () => {
  it('takes CHROMIUM_PATH when it names an executable, and says so when it does not', () => {
    expect(findChromium({ CHROMIUM_PATH: process.execPath })).toEqual({ path: process.execPath });
    expect(findChromium({ CHROMIUM_PATH: '/nonexistent/chromium' })).toEqual({
      missing: 'CHROMIUM_PATH=/nonexistent/chromium is not an executable file',
    });
  });

  it('looks for the usual names on PATH', () => {
    const found = findChromium({ PATH: '/nonexistent' });
    // This machine has Debian's chromium; with no PATH at all only /usr/bin/chromium can be found.
    expect(found).toEqual({ path: '/usr/bin/chromium' });
  });

  it('takes PYTHON only when it can import pytest and requests', () => {
    expect(findPython({ PYTHON: '/nonexistent/python3' })).toEqual({
      missing: 'PYTHON=/nonexistent/python3 cannot import pytest and requests',
    });
    expect('path' in findPython({ PATH: process.env.PATH })).toBe(true);
  });
});

describe('what to do about missing ones', () => {
  const root = { isRoot: true, aptGet: '/usr/bin/apt-get', env: {} };

  it('nothing when nothing is missing', () => {
    expect(plan([], root)).toEqual({ ok: true });
  });

  it("installs Debian's packages as root with apt-get", () => {
    expect(plan([missingChromium, missingPython], root)).toEqual({
      install: ['chromium', 'python3', 'python3-pytest', 'python3-requests'],
      aptGet: '/usr/bin/apt-get',
    });
  });

  it('stops with one line when it cannot install', () => {
    expect(plan([missingChromium], { ...root, isRoot: false })).toEqual({
      error: 'npm test: no Chromium found: install them (apt-get install chromium) or set CHROMIUM_PATH',
    });
    expect(plan([missingChromium, missingPython], { ...root, aptGet: null })).toEqual({
      error:
        'npm test: no Chromium found; no Python 3 with pytest and requests found: install them (apt-get install chromium python3 python3-pytest python3-requests) or set CHROMIUM_PATH / PYTHON',
    });
  });

  it('never installs over an override that names a missing program', () => {
    expect(
      plan([{ ...missingChromium, missing: 'CHROMIUM_PATH=/x is not an executable file' }], {
        ...root,
        env: { CHROMIUM_PATH: '/x' },
      }),
    ).toEqual({
      error: 'npm test: CHROMIUM_PATH=/x is not an executable file: fix CHROMIUM_PATH or unset it',
    });
  });
});

describe('the script', () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, [path.join(ROOT, 'scripts/test-prerequisites.mjs')], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });

  it('passes on this machine', () => {
    expect(run({})).toMatchObject({ status: 0, stdout: '', stderr: '' });
  });

  it('stops at once with one line when the browser it is told to use is missing', () => {
    const r = run({ CHROMIUM_PATH: '/nonexistent/chromium', PYTHON: '/nonexistent/python3' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'npm test: CHROMIUM_PATH=/nonexistent/chromium is not an executable file; PYTHON=/nonexistent/python3 cannot import pytest and requests: fix CHROMIUM_PATH or unset it\n',
    );
  });
});
