// First module of the single executable (see main.ts): unpacks the embedded files and makes them
// the package root, and loads scenario modules as CommonJS (tsx cannot run inside the executable;
// the shipped TypeScript scenarios are compiled to .cjs when the executable is built).
import { createRequire } from 'node:module';
import path from 'node:path';
import { getAsset } from 'node:sea';
import { usePackageRoot } from '../package-root.js';
import { useModuleLoader } from '../control/scenarios/load.js';
import { unpack, type BuildHashes, type EmbeddedFiles } from './unpack.js';

/** Names of the assets holding the files and what the build computed of them (scripts/build-binary.mjs writes them). */
const FILES_ASSET = 'files.json';
const BUILD_ASSET = 'build.json';

// The files themselves are parsed only when they must be written: a start that finds its
// verified copy reads the small build asset alone.
const { hashes, bundles } = JSON.parse(getAsset(BUILD_ASSET, 'utf8')) as { hashes: BuildHashes; bundles: string[] };
const files = () => (JSON.parse(getAsset(FILES_ASSET, 'utf8')) as { files: EmbeddedFiles }).files;
const root = unpack(files, bundles, hashes);
usePackageRoot(root);

useModuleLoader(async (file) => {
  if (/\.(c?js)$/.test(file)) return createRequire(path.join(root, 'scenarios', 'index.cjs'))(file);
  throw new Error(
    'the single executable loads JSON and CommonJS (.cjs) scenario files; a TypeScript or ES module scenario needs the npm package (npx teamchat-mock)',
  );
});
