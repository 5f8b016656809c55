#!/usr/bin/env node
// dist/src/cli.js, written by scripts/build.mjs from scripts/lib/cli-loader.mjs: runs the command
// line bundled in one CommonJS file (cli.bundle.cjs) with the V8 code cache the build made for it
// (cli.bundle.cache), so that a start neither resolves hundreds of modules nor compiles the code
// it runs: compiling took a quarter of the start-up. A cache made by another node version is
// rejected by V8, and the code is then compiled as usual.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const file = fileURLToPath(new URL('./cli.bundle.cjs', import.meta.url));
const cacheFile = file.replace(/\.cjs$/, '.cache');
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  // No cache (removed, or a build without one): compiled as usual.
}
// The module wrapper on the source's first line, so that stack traces keep their line numbers.
// A script run this way cannot import() (node 20 offers it only as an experiment, lost with a
// code cache): the build rewrote the bundle's one import() of a package, tsx, to __importModule.
const source = `(function (exports, require, module, __filename, __dirname, __importModule) {${readFileSync(file, 'utf8').replace(/^#!.*/, '')}\n})`;
const script = new vm.Script(source, { filename: file, cachedData });
// The build starts the command line once with this set, answers a first request and stops it:
// the cache then holds the code a start runs, compiled.
if (process.env.TEAMCHAT_MOCK_WRITE_CODE_CACHE === '1')
  process.once('exit', () => writeFileSync(cacheFile, script.createCachedData()));
const module = { exports: {} };
script.runInThisContext()(
  module.exports,
  createRequire(file),
  module,
  file,
  path.dirname(file),
  (specifier) => import(specifier),
);
