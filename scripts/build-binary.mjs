// `npm run build:binary`: the single executable dist/teamchat-mock (Node's single executable
// applications: https://nodejs.org/api/single-executable-applications.html). esbuild bundles the
// entry (src/binary/main.ts) into one CommonJS file; the command line npm's build bundled, its
// code cache and the run-time files travel as assets; postject injects the blob into a copy of
// this node binary. Runs after `npm run build` (it
// embeds dist/openapi-bundle).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'binary');
const TARGET = path.join(ROOT, 'dist', 'teamchat-mock');
// The sentinel Node looks for to know that a blob was injected (fixed by Node, see the page above).
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const BUNDLES = ['api', 'control', 'behaviours'];

const started = performance.now();
const step = (what) => console.log(`build:binary: ${what} (${((performance.now() - started) / 1000).toFixed(1)} s)`);

function walk(rel) {
  const full = path.join(ROOT, rel);
  if (!statSync(full).isDirectory()) return [rel];
  return readdirSync(full)
    .sort()
    .flatMap((name) => walk(path.join(rel, name)));
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

// 1. The program: the entry that unpacks the files and runs the command line npm's build bundled
// (dist/src/cli.bundle.cjs, with its V8 code cache), both embedded as assets (src/binary/main.ts).
await esbuild.build({
  entryPoints: [path.join(ROOT, 'src/binary/main.ts')],
  outfile: path.join(OUT, 'main.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const CLI_BUNDLE = path.join(ROOT, 'dist', 'src', 'cli.bundle.cjs');
const CLI_CACHE = path.join(ROOT, 'dist', 'src', 'cli.bundle.cache');
if (!existsSync(CLI_BUNDLE)) throw new Error('dist/src/cli.bundle.cjs is missing: run npm run build first');
step('bundled the program');

// 2. The files it reads at run time, with the shipped TypeScript scenarios compiled to CommonJS.
const files = {};
const take = (rel) => {
  files[rel.split(path.sep).join('/')] = readFileSync(path.join(ROOT, rel), 'utf8');
};
for (const rel of [...walk('openapi'), ...walk('fixtures'), ...walk('src/ui')]) take(rel);
for (const name of BUNDLES) {
  const rel = path.join('dist', 'openapi-bundle', `${name}.json`);
  if (!existsSync(path.join(ROOT, rel))) throw new Error(`${rel} is missing: run npm run build first`);
  take(rel);
}
for (const rel of walk('scenarios')) {
  if (rel.endsWith('.json')) take(rel);
  else if (rel.endsWith('.ts')) {
    const result = await esbuild.build({
      entryPoints: [path.join(ROOT, rel)],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      logLevel: 'warning',
    });
    files[`scenarios/${path.basename(rel, '.ts')}.cjs`] = result.outputFiles[0].text;
  }
}
writeFileSync(path.join(OUT, 'files.json'), JSON.stringify({ files, bundles: BUNDLES }));
// What a start checks its cache against, computed now (src/binary/unpack.ts, compiled by the build).
const { buildHashes } = await import(path.join(ROOT, 'dist', 'src', 'binary', 'unpack.js'));
writeFileSync(path.join(OUT, 'build.json'), JSON.stringify({ hashes: buildHashes(files), bundles: BUNDLES }));
step(`collected ${Object.keys(files).length} files`);

// 3. The blob, and a copy of node with the blob injected.
writeFileSync(
  path.join(OUT, 'sea-config.json'),
  JSON.stringify({
    main: path.join(OUT, 'main.cjs'),
    output: path.join(OUT, 'sea-prep.blob'),
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    assets: {
      'files.json': path.join(OUT, 'files.json'),
      'build.json': path.join(OUT, 'build.json'),
      'cli.bundle.cjs': CLI_BUNDLE,
      ...(existsSync(CLI_CACHE) ? { 'cli.bundle.cache': CLI_CACHE } : {}),
    },
  }),
);
const run = (args, what) => {
  const r = spawnSync(args[0], args.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    throw new Error(`${what} failed`);
  }
};
run(
  [process.execPath, '--experimental-sea-config', path.join(OUT, 'sea-config.json')],
  'node --experimental-sea-config',
);
step('wrote the blob');
if (!readFileSync(process.execPath).includes(`${FUSE}:0`)) {
  throw new Error(
    `${process.execPath} cannot carry a single executable application (no SEA fuse): use a node binary from nodejs.org`,
  );
}
rmSync(TARGET, { force: true });
copyFileSync(process.execPath, TARGET);
chmodSync(TARGET, 0o755);
run(
  [
    process.execPath,
    path.join(ROOT, 'node_modules/postject/dist/cli.js'),
    TARGET,
    'NODE_SEA_BLOB',
    path.join(OUT, 'sea-prep.blob'),
    '--sentinel-fuse',
    FUSE,
  ],
  'postject',
);
const mb = (statSync(TARGET).size / 1024 / 1024).toFixed(1);
step(`dist/teamchat-mock: ${mb} MB`);
