// First module of the single executable (see main.ts): unpacks the embedded files and makes them
// the package root, and loads scenario modules as CommonJS (tsx cannot run inside the executable;
// the shipped TypeScript scenarios are compiled to .cjs when the executable is built).
import { createRequire } from 'node:module';
import path from 'node:path';
import { getAsset } from 'node:sea';
import { usePackageRoot } from '../package-root.js';
import { useModuleLoader } from '../control/scenarios/load.js';
import { unpack, type EmbeddedFiles } from './unpack.js';

/** Name of the asset holding the files (scripts/build-binary.mjs writes it). */
const FILES_ASSET = 'files.json';

const { files, bundles } = JSON.parse(getAsset(FILES_ASSET, 'utf8')) as { files: EmbeddedFiles; bundles: string[] };
const root = unpack(files, bundles);
usePackageRoot(root);

useModuleLoader(async (file) => {
  if (/\.(c?js)$/.test(file)) return createRequire(path.join(root, 'scenarios', 'index.cjs'))(file);
  throw new Error(
    'the single executable loads JSON and CommonJS (.cjs) scenario files; a TypeScript or ES module scenario needs the npm package (npx teamchat-mock)',
  );
});
