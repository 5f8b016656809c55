// The single executable carries the package's run-time files (description, fixture, scenarios,
// inspector) as one embedded asset. They are written once per build to a cache folder, which
// then serves as the package root: every module reads files there exactly as from a checkout.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleSignature } from '../contract/load.js';

/** The embedded asset: relative path -> file content (all of them are text). */
export type EmbeddedFiles = Record<string, string>;

/** Candidate folders for the unpacked files, first writable one wins. */
function cacheRoots(): string[] {
  const home = os.homedir();
  return [
    process.env.TEAMCHAT_MOCK_CACHE,
    process.env.XDG_CACHE_HOME && path.join(process.env.XDG_CACHE_HOME, 'teamchat-mock'),
    home && path.join(home, '.cache', 'teamchat-mock'),
    path.join(os.tmpdir(), `teamchat-mock-${os.userInfo().uid}`),
  ].filter((d): d is string => !!d);
}

/** Unpacks `files` (unless this build's copy is there already) and gives the folder. */
export function unpack(files: EmbeddedFiles, bundles: string[]): string {
  const id = createHash('sha1').update(JSON.stringify(files)).digest('hex').slice(0, 16);
  let lastError: unknown;
  for (const base of cacheRoots()) {
    const dir = path.join(base, id);
    if (existsSync(path.join(dir, '.complete'))) return dir;
    try {
      // Written beside and renamed into place: a concurrent start never sees half a folder.
      const tmp = `${dir}.tmp-${process.pid}`;
      rmSync(tmp, { recursive: true, force: true });
      for (const [rel, text] of Object.entries(files)) {
        const file = path.join(tmp, rel);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, text);
      }
      // The description's JSON bundles are valid for the YAML files they were made from, which
      // load.ts checks by path, size and time: sign them for the files just written.
      for (const name of bundles) {
        const file = path.join(tmp, 'dist', 'openapi-bundle', `${name}.json`);
        const bundle = JSON.parse(readFileSync(file, 'utf8'));
        bundle.signature = bundleSignature(name, path.join(tmp, 'openapi')).split(tmp).join(dir);
        writeFileSync(file, JSON.stringify(bundle));
      }
      writeFileSync(path.join(tmp, '.complete'), id);
      try {
        renameSync(tmp, dir);
      } catch (err) {
        // Another process got there first: its copy is the same.
        rmSync(tmp, { recursive: true, force: true });
        if (!existsSync(path.join(dir, '.complete'))) throw err;
      }
      return dir;
    } catch (err) {
      lastError = err;
    }
  }
  throw new Error(`cannot unpack the embedded files (set TEAMCHAT_MOCK_CACHE to a writable folder): ${(lastError as Error)?.message}`);
}
