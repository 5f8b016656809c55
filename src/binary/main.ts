// Entry of the single executable (npm run build:binary): unpacks the embedded files (setup.ts),
// then runs the command line as `node dist/src/cli.js` does (scripts/lib/cli-loader.mjs): the
// bundle the build made, with its V8 code cache, both embedded as assets. The bundle stands as if
// in the unpacked folder's dist/src/, so it finds the package's files there as from a checkout.
// Scenario modules load as CommonJS: tsx cannot run inside the executable (the shipped
// TypeScript scenarios were compiled to .cjs when the executable was built).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getAsset } from 'node:sea';
import vm from 'node:vm';
import { root } from './setup.js';

const file = path.join(root, 'dist', 'src', 'cli.bundle.cjs');

function loadScenarioModule(scenario: string): unknown {
  if (/\.(c?js)$/.test(scenario)) return createRequire(path.join(root, 'scenarios', 'index.cjs'))(scenario);
  throw new Error(
    'the single executable loads JSON and CommonJS (.cjs) scenario files; a TypeScript or ES module scenario needs the npm package (npx teamchat-mock)',
  );
}

/** The bundle's one import() of a package, tsx's, answered by the CommonJS loader above. */
async function importModule(specifier: string): Promise<unknown> {
  if (specifier !== 'tsx/esm/api') throw new Error(`the single executable cannot import ${specifier}`);
  return { tsImport: async (url: string) => loadScenarioModule(fileURLToPath(url)) };
}

// The same wrapper as cli-loader.mjs: the code cache is valid for this exact source only (V8
// rejects it otherwise, and the code is then compiled as usual).
const source = `(function (exports, require, module, __filename, __dirname, __importModule) {${getAsset('cli.bundle.cjs', 'utf8').replace(/^#!.*/, '')}\n})`;
let cachedData: Buffer | undefined;
try {
  cachedData = Buffer.from(getAsset('cli.bundle.cache'));
} catch {
  // Built without a cache: compiled as usual.
}
const script = new vm.Script(source, { filename: file, cachedData });
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file), importModule);
