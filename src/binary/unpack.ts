// The single executable carries the package's run-time files (description, fixture, scenarios,
// inspector) as one embedded asset. They are written once per build to a cache folder, which
// then serves as the package root: every module reads files there exactly as from a checkout.
//
// Whatever is in that folder runs as the user (scenario modules are code), so a folder is used
// only when nobody else could have written it: the cache root must be a real directory (no
// symlink) owned by the user with no permission for anybody else, and the build's folder inside it
// must hold exactly the files this build embeds (hashes checked on every start, against the
// hashes the build computed). When no cache
// root passes, the files go to a fresh private temporary folder for this run only.
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleSignature } from '../contract/load.js';

/** The embedded asset: relative path -> file content (all of them are text). */
export type EmbeddedFiles = Record<string, string>;

/** What `.complete` holds: the build and the SHA-256 of every file as written. */
interface Manifest {
  id: string;
  files: Record<string, string>;
}

const MANIFEST = '.complete';
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const myUid = () => (typeof process.getuid === 'function' ? process.getuid() : -1);

/** Candidate folders for the unpacked files, first usable one wins. */
function cacheRoots(): string[] {
  const home = os.homedir();
  return [
    process.env.TEAMCHAT_MOCK_CACHE,
    process.env.XDG_CACHE_HOME && path.join(process.env.XDG_CACHE_HOME, 'teamchat-mock'),
    home && path.join(home, '.cache', 'teamchat-mock'),
  ].filter((d): d is string => !!d);
}

/** Why `dir` cannot be trusted as private to this user, or null when it can. */
function notPrivate(dir: string): string | null {
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink()) return 'is a symbolic link';
  if (!stat.isDirectory()) return 'is not a directory';
  if (myUid() >= 0 && stat.uid !== myUid()) return `belongs to user ${stat.uid}`;
  if (stat.mode & 0o077) return `is open to other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return null;
}

/**
 * Makes `root` (creating it 0700 when missing) and checks it is private. A root of ours that is
 * merely too open (an older version made it 0755) is closed first; one owned by someone else,
 * or a symlink, is refused.
 */
function privateRoot(root: string): void {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const stat = lstatSync(root);
  if (!stat.isSymbolicLink() && stat.isDirectory() && stat.uid === myUid() && stat.mode & 0o077) chmodSync(root, 0o700);
  const problem = notPrivate(root);
  if (problem) throw new Error(`${root} ${problem}`);
}

/**
 * The build's id and each embedded file's SHA-256: what a start checks the cache against. The
 * executable's build computes it (scripts/build-binary.mjs), so that a start neither reads the
 * embedded files nor hashes them, only the copies on disk.
 */
export interface BuildHashes {
  id: string;
  files: Record<string, string>;
}

/** @public (scripts/build-binary.mjs imports it from dist/, where knip cannot follow) */
export function buildHashes(files: EmbeddedFiles): BuildHashes {
  const id = createHash('sha1').update(JSON.stringify(files)).digest('hex').slice(0, 16);
  return { id, files: Object.fromEntries(Object.entries(files).map(([rel, text]) => [rel, sha256(text)])) };
}

/** True when `dir` holds exactly the files of this build, each a regular file of ours. */
function holdsBuild(dir: string, build: BuildHashes, bundles: Set<string>): boolean {
  try {
    if (notPrivate(dir)) return false;
    const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as Manifest;
    if (manifest.id !== build.id) return false;
    for (const [rel, built] of Object.entries(build.files)) {
      const expected = manifest.files[rel];
      // A bundle is re-signed when unpacked, so its expected hash is the one written then.
      if (!expected || (!bundles.has(rel) && expected !== built)) return false;
      const file = path.join(dir, rel);
      const stat = lstatSync(file);
      if (!stat.isFile() || (myUid() >= 0 && stat.uid !== myUid())) return false;
      if (sha256(readFileSync(file)) !== expected) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** Writes the files into `dir`, a new empty private folder (files created exclusively). */
function writeBuild(dir: string, id: string, files: EmbeddedFiles, bundleNames: string[], finalDir: string): void {
  const manifest: Manifest = { id, files: {} };
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
    manifest.files[rel] = sha256(text);
  }
  // The description's JSON bundles are valid for the YAML files they were made from, which
  // load.ts checks by path, size and time: sign them for the files just written.
  for (const name of bundleNames) {
    const rel = path.join('dist', 'openapi-bundle', `${name}.json`);
    const file = path.join(dir, rel);
    const bundle = JSON.parse(readFileSync(file, 'utf8'));
    bundle.signature = bundleSignature(name, path.join(dir, 'openapi')).split(dir).join(finalDir);
    const text = JSON.stringify(bundle);
    writeFileSync(file, text);
    manifest.files[rel] = sha256(text);
  }
  writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest), { flag: 'wx', mode: 0o600 });
}

const bundleRel = (name: string) => path.join('dist', 'openapi-bundle', `${name}.json`);

/**
 * Unpacks the files (unless this build's verified copy is there already) and gives the folder.
 * `embedded` may be a function giving them: they are then read only when they must be written.
 */
export function unpack(
  embedded: EmbeddedFiles | (() => EmbeddedFiles),
  bundles: string[],
  build: BuildHashes = buildHashes(typeof embedded === 'function' ? embedded() : embedded),
): string {
  let read: EmbeddedFiles | null = null;
  const files = (): EmbeddedFiles => (read ??= typeof embedded === 'function' ? embedded() : embedded);
  const id = build.id;
  const bundleFiles = new Set(bundles.map(bundleRel));
  for (const root of cacheRoots()) {
    try {
      privateRoot(root);
      const dir = path.join(root, id);
      if (holdsBuild(dir, build, bundleFiles)) return dir;
      // Written beside and renamed into place: a concurrent start never sees half a folder.
      const tmp = `${dir}.tmp-${process.pid}`;
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp, { mode: 0o700 });
      writeBuild(tmp, id, files(), bundles, dir);
      rmSync(dir, { recursive: true, force: true });
      try {
        renameSync(tmp, dir);
      } catch (err) {
        // Another process got there first: its copy is the same, once verified.
        rmSync(tmp, { recursive: true, force: true });
        if (!holdsBuild(dir, build, bundleFiles)) throw err;
      }
      return dir;
    } catch {
      // Not usable (not writable, or not private): the next candidate.
    }
  }
  // No private cache: a new folder only this process made (mkdtemp creates it 0700), removed at exit.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamchat-mock-'));
  writeBuild(dir, id, files(), bundles, dir);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
