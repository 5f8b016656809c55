// Builds dist/ (tsc, then the description bundles, then the command line as one file) and records
// what it was built from, so that
// `npm start` and `prepare` can skip the build when no input changed since (a stat per file,
// milliseconds, where tsc takes seconds). `node scripts/build.mjs` always builds, from a clean
// dist/src; `--if-changed` only when an input changed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(ROOT, 'dist', '.build-inputs');
// Everything the output depends on: the sources, the description and how they are compiled.
const INPUTS = [
  'src',
  'openapi',
  'tsconfig.json',
  'package.json',
  'scripts/build.mjs',
  'scripts/generate-param-types.ts',
  'scripts/generate-state-schema.ts',
];
const GENERATED = path.join('src', 'contract', 'generated');

function files(rel) {
  const full = path.join(ROOT, rel);
  const st = statSync(full, { throwIfNoEntry: false });
  if (!st) return [];
  if (!st.isDirectory()) return [`${rel}:${st.size}:${st.mtimeMs}`];
  // Generated from openapi/ (already an input) during the build itself.
  if (rel === GENERATED) return [];
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(path.join(rel, name)));
}

/** A hash of every input's path, size and modification time. */
export function inputsSignature() {
  return createHash('sha1').update(INPUTS.flatMap(files).join('\n')).digest('hex');
}

export function isUpToDate() {
  return (
    existsSync(STAMP) &&
    readFileSync(STAMP, 'utf8') === inputsSignature() &&
    existsSync(path.join(ROOT, 'dist/src/cli.js'))
  );
}

export async function build() {
  const signature = inputsSignature();
  // A clean output: files renamed or deleted in src/ must not live on in dist/ (nor in the package).
  rmSync(path.join(ROOT, 'dist', 'src'), { recursive: true, force: true });
  rmSync(STAMP, { force: true });
  // The parameter types and the state's schema (from src/store/state.ts).
  for (const script of ['generate-param-types.ts', 'generate-state-schema.ts']) {
    const gen = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', script)], {
      stdio: 'inherit',
      cwd: ROOT,
    });
    if (gen.status !== 0) throw new Error(`${script} failed`);
  }
  const tsc = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.json')],
    { stdio: 'inherit' },
  );
  if (tsc.status !== 0) throw new Error('tsc failed');
  const { writeBundles } = await import(path.join(ROOT, 'dist/src/contract/load.js'));
  writeBundles();
  await bundleCli();
  writeFileSync(STAMP, signature);
}

/**
 * dist/src/cli.js as one file with its dependencies (tsx aside: it loads TypeScript scenarios on
 * first use and stays a package): loading the 360 modules tsc writes, and those of node_modules,
 * one by one took more than half of the start-up. The other files of dist/src stay as tsc wrote
 * them (the library's entry, index.js, and its types). Modules imported on first use (import())
 * are in the file but evaluated only then.
 */
async function bundleCli() {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'src', 'cli.ts')],
    outfile: path.join(ROOT, 'dist', 'src', 'cli.js'),
    allowOverwrite: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['tsx', 'tsx/*'],
    // The CommonJS dependencies bundled into an ES module still call require() for node's modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  rmSync(path.join(ROOT, 'dist', 'src', 'cli.js.map'), { force: true });
}

/** Builds unless dist/ was built from exactly the current inputs. */
export async function buildIfChanged() {
  if (isUpToDate()) return false;
  console.error('teamchat-mock: sources changed since the last build, building dist/ ...');
  await build();
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    if (process.argv.includes('--if-changed')) await buildIfChanged();
    else await build();
  } catch (err) {
    console.error(`build: ${err.message}`);
    process.exit(1);
  }
}
