// The single executable's cache (src/binary/unpack.ts): only a folder nobody else could have written
// is trusted; anything planted, opened up or changed is never used.
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unpack } from '../../src/binary/unpack.js';

const files = { 'scenarios/index.cjs': 'module.exports = "genuine";', 'fixtures/default.json': '{}' };
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let work: string;
let cache: string;
const saved = process.env.TEAMCHAT_MOCK_CACHE;
const savedXdg = process.env.XDG_CACHE_HOME;
const savedHome = process.env.HOME;

beforeEach(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'unpack-test-'));
  cache = path.join(work, 'cache');
  process.env.TEAMCHAT_MOCK_CACHE = cache;
  // Only the folder under test is a candidate (no XDG or home cache).
  delete process.env.XDG_CACHE_HOME;
  process.env.HOME = path.join(work, 'no-home');
  writeFileSync(path.join(work, 'no-home'), 'not a folder');
});
afterEach(() => {
  rmSync(work, { recursive: true, force: true });
  process.env.TEAMCHAT_MOCK_CACHE = saved;
  if (savedXdg === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = savedXdg;
  process.env.HOME = savedHome;
});

const scenarioIn = (dir: string) => readFileSync(path.join(dir, 'scenarios/index.cjs'), 'utf8');

/** Plants a complete-looking copy of this build (as an earlier version would have left it) in `root`. */
function plant(root: string): string {
  const first = unpack(files, []);
  const id = path.basename(first);
  rmSync(cache, { recursive: true, force: true });
  const dir = path.join(root, id);
  mkdirSync(dir, { recursive: true });
  mkdirSync(path.join(dir, 'scenarios'), { recursive: true });
  mkdirSync(path.join(dir, 'fixtures'), { recursive: true });
  writeFileSync(path.join(dir, 'scenarios/index.cjs'), 'module.exports = "planted";');
  writeFileSync(path.join(dir, 'fixtures/default.json'), '{}');
  writeFileSync(path.join(dir, '.complete'), id);
  return dir;
}

describe('the single executable cache', () => {
  it('unpacks into a private folder and reuses it on the next start', () => {
    const dir = unpack(files, []);
    expect(path.dirname(dir)).toBe(cache);
    expect(scenarioIn(dir)).toBe('module.exports = "genuine";');
    expect(unpack(files, [])).toBe(dir);
  });

  it('never runs a copy whose content differs from the build (a marker alone is not enough)', () => {
    const dir = plant(cache);
    chmodSync(cache, 0o700);
    const used = unpack(files, []);
    expect(scenarioIn(used)).toBe('module.exports = "genuine";');
    expect(used).toBe(dir);
  });

  it('refuses a cache folder another user owns and falls back to a fresh private folder', () => {
    if (!isRoot) return; // Making a folder of another user's needs root.
    plant(cache);
    chownSync(cache, 65534, 65534);
    chmodSync(cache, 0o755);
    const used = unpack(files, []);
    expect(used.startsWith(cache)).toBe(false);
    expect(scenarioIn(used)).toBe('module.exports = "genuine";');
  });

  it('refuses a cache root that is a symbolic link', () => {
    const elsewhere = path.join(work, 'elsewhere');
    plant(elsewhere);
    chmodSync(elsewhere, 0o700);
    symlinkSync(elsewhere, cache);
    const used = unpack(files, []);
    expect(used.startsWith(elsewhere)).toBe(false);
    expect(scenarioIn(used)).toBe('module.exports = "genuine";');
  });

  it('closes a cache root of ours that is open to others before using it', () => {
    mkdirSync(cache, { mode: 0o777 });
    chmodSync(cache, 0o777);
    const dir = unpack(files, []);
    expect(dir.startsWith(cache)).toBe(true);
    expect(existsSync(dir)).toBe(true);
    expect(statSync(cache).mode & 0o077).toBe(0);
  });
});
