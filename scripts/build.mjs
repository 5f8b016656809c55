// Builds dist/ (tsc, the description bundles, then the command line as one file with its code
// cache) and records what it was built from, so that `npm start` and `prepare` can skip the build
// when no input changed since (a stat per file, milliseconds, where tsc takes seconds). `node scripts/build.mjs` always builds, from a clean
// dist/src; `--if-changed` only when an input changed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(ROOT, 'dist', '.build-inputs');
// Everything the output depends on: the sources, the description and how they are compiled.
const INPUTS = [
  'src',
  'openapi',
  'fixtures',
  'tsconfig.json',
  'package.json',
  'scripts/build.mjs',
  'scripts/lib/cli-loader.mjs',
  'scripts/lib/import-meta-url.mjs',
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
  // The first calls' response validators, compiled now into the API description's bundle.
  const { prebuildValidators } = await import(path.join(ROOT, 'dist/src/contract/prebuilt.js'));
  prebuildValidators();
  await bundleCli();
  writeFileSync(STAMP, signature);
}

/**
 * The command line as one CommonJS file with its dependencies, dist/src/cli.bundle.cjs (tsx aside:
 * it loads TypeScript scenarios on first use and stays a package), run by dist/src/cli.js
 * (scripts/lib/cli-loader.mjs) with a V8 code cache made here. Loading the 360 modules tsc writes,
 * and those of node_modules, one by one took more than half of the start-up. The other files of
 * dist/src stay as tsc wrote them (the library's entry, index.js, and its types). Modules imported
 * on first use (import()) are in the file but evaluated only then.
 */
async function bundleCli() {
  const esbuild = await import('esbuild');
  const out = path.join(ROOT, 'dist', 'src');
  const bundle = path.join(out, 'cli.bundle.cjs');
  const shipped = await shippedFixture();
  await esbuild.build(cliBundleOptions(shipped, bundle));
  // The loader runs the bundle as a script, which has no import(): the one package the bundle
  // imports at run time (tsx, for TypeScript scenarios) goes through the loader's.
  const code = readFileSync(bundle, 'utf8');
  const imports = code.match(/(?<![\w.$}])import\(/g) ?? [];
  if (imports.length !== 1 || !code.includes('import("tsx/esm/api")'))
    throw new Error('cli.bundle.cjs: expected one import(), of tsx/esm/api (see scripts/lib/cli-loader.mjs)');
  // An ASCII file is read into a one-byte string at copying speed; one character beyond ASCII made
  // the loader decode the whole bundle as UTF-8 into a two-byte string (7 MB, ~5 ms of CPU each
  // start). esbuild escapes such characters everywhere but in a regular expression with the u flag.
  const wide = /[^\x00-\x7f]/.exec(code);
  if (wide)
    throw new Error(
      `cli.bundle.cjs: '${wide[0]}' (${code.slice(Math.max(0, wide.index - 40), wide.index + 10)}): write it as a \\u escape in the source, so that the bundle stays ASCII`,
    );
  writeFileSync(bundle, code.replace('import("tsx/esm/api")', '__importModule("tsx/esm/api")'));
  rmSync(path.join(out, 'cli.js.map'), { force: true });
  copyFileSync(path.join(ROOT, 'scripts', 'lib', 'cli-loader.mjs'), path.join(out, 'cli.js'));
  chmodSync(path.join(out, 'cli.js'), 0o755);
  await writeCodeCache(path.join(out, 'cli.js'));
}

/**
 * Starts the bundled command line once, asks for a first answer and stops it; the loader then
 * writes the code cache of what ran (TEAMCHAT_MOCK_WRITE_CODE_CACHE). Without a cache the command
 * line still runs, only slower, so a failure here is reported and not fatal.
 */
async function writeCodeCache(cli) {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [cli, '--port', '0', '--host', '127.0.0.1', '--quiet'], {
    env: { ...process.env, TEAMCHAT_MOCK_WRITE_CODE_CACHE: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const base = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('no address after 60 s')), 60_000);
      child.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+?)[\s)]/.exec(out);
        if (m) resolve(m[1]);
      });
      exited.then(() => reject(new Error(`exited: ${out}`)));
      timer.unref();
    });
    await (await fetch(`${base}/api/v1/server_settings`)).arrayBuffer();
    // A client's first authenticated reads (those whose validators prebuilt.ts compiles), so that
    // the code of authenticating and of those views is in the cache too: compiled on the first
    // request otherwise.
    const user = firstHuman();
    const authorization = `Basic ${Buffer.from(`${user.email}:${user.api_key}`).toString('base64')}`;
    for (const read of ['/users/me', '/users/me/subscriptions']) {
      const res = await fetch(`${base}/api/v1${read}`, { headers: { authorization } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${read} answered ${res.status}`);
    }
  } catch (err) {
    console.error(`build: no code cache for the command line (${err.message})`);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** The shipped fixture's first active user who is not a bot (the code cache's reads are theirs). */
function firstHuman() {
  const { users } = JSON.parse(readFileSync(path.join(ROOT, 'fixtures', 'default.json'), 'utf8'));
  const user = users.find((u) => u.is_active && !u.is_bot && u.api_key);
  if (!user) throw new Error('fixtures/default.json has no active user who is not a bot');
  return user;
}

/**
 * The shipped fixture, checked now as a start checks a state (schema, rows, the domain's rules):
 * the bundle carries its SHA-256, and a start that reads the same bytes skips the check
 * (store/fixture.ts). A fixture that fails stops the build. The bundle also carries what a fresh
 * start on it renders before its first answer, rendered now (domain/render/prerendered.ts).
 */
async function shippedFixture() {
  const dist = (rel) => import(path.join(ROOT, 'dist/src', rel));
  const { readStateFile } = await dist('store/fixture.js');
  const { STATE_RULES } = await dist('domain/state-rules.js');
  const { Store } = await dist('store/store.js');
  const { renderMarkdown } = await dist('domain/render/markdown.js');
  const { renderingsAtStart } = await dist('domain/render/prerendered.js');
  const file = path.join(ROOT, 'fixtures', 'default.json');
  const store = new Store(readStateFile(file, STATE_RULES));
  const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
  const renderings = renderingsAtStart(store, (content, level) => renderMarkdown(store, content, null, level));
  return { checked: [hash], renderings: { [hash]: renderings } };
}

/** esbuild's options for the bundled command line. */
function cliBundleOptions({ checked, renderings }, outfile) {
  return {
    entryPoints: [path.join(ROOT, 'src', 'cli.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['tsx', 'tsx/*'],
    // CommonJS has no import.meta.url: the bundle's own file stands for it (package-root.ts).
    define: {
      BUILD_CHECKED_STATES: JSON.stringify(checked),
      BUILD_RENDERINGS: JSON.stringify(renderings),
      'import.meta.url': 'importMetaUrl',
    },
    inject: [path.join(ROOT, 'scripts', 'lib', 'import-meta-url.mjs')],
    plugins: [mimeTypesOnFirstUse(), markedOnFirstUse(), samePackageOnce(), multerWithExpressTypeIs()],
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'none',
    logLevel: 'warning',
  };
}

/**
 * An esbuild plugin: a package that node_modules holds several times at the same version
 * (express, send and body-parser each have mime-types 3.0.2, which builds its tables from
 * mime-db when loaded) is bundled, and so loaded, once.
 */
function samePackageOnce() {
  return {
    name: 'same-package-once',
    setup(build) {
      const first = new Map();
      build.onResolve({ filter: /^[@a-z]/ }, async (args) => {
        if (args.pluginData === 'same-package-once') return undefined;
        const result = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'same-package-once',
        });
        if (result.errors.length || result.external || !result.path.includes('node_modules')) return result;
        const at = result.path.lastIndexOf('node_modules' + path.sep);
        const rest = result.path.slice(at + 'node_modules'.length + 1).split(path.sep);
        const name = rest[0].startsWith('@') ? rest.slice(0, 2).join('/') : rest[0];
        const root = result.path.slice(0, at) + path.join('node_modules', name);
        const manifest = path.join(root, 'package.json');
        if (!existsSync(manifest)) return result;
        const key = `${name}@${JSON.parse(readFileSync(manifest, 'utf8')).version}:${path.relative(root, result.path)}`;
        if (!first.has(key)) first.set(key, result.path);
        return { ...result, path: first.get(key) };
      });
    },
  };
}

/**
 * An esbuild plugin: mime-types builds its tables from mime-db (every type, every extension scored)
 * when loaded, and Express loads it with itself, yet a start and most requests never ask it
 * anything. Express, send, accepts and type-is only call its functions (contentType, lookup), so
 * each package's mime-types is bundled behind a module with the same exports that loads it on
 * the first call. One per version: copies of one version load once (as samePackageOnce does).
 */
function mimeTypesOnFirstUse() {
  const NS = 'mime-types-on-first-use';
  return {
    name: NS,
    setup(build) {
      const byVersion = new Map();
      build.onResolve({ filter: /^mime-types$/ }, async (args) => {
        if (args.pluginData || !args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const real = await build.resolve('mime-types', {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'same-package-once',
        });
        if (real.errors.length) return real;
        const root = path.dirname(real.path);
        const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
        if (!byVersion.has(version)) byVersion.set(version, real.path);
        return { path: byVersion.get(version), namespace: NS };
      });
      build.onLoad({ filter: /.*/, namespace: NS }, (args) => ({
        resolveDir: path.dirname(args.path),
        loader: 'js',
        contents: `let real;
const load = () => (real ??= require(${JSON.stringify(args.path)}));
module.exports = {
  charset: (type) => load().charset(type),
  charsets: { lookup: (type) => load().charset(type) },
  contentType: (str) => load().contentType(str),
  extension: (type) => load().extension(type),
  get extensions() { return load().extensions; },
  lookup: (p) => load().lookup(p),
  get types() { return load().types; },
  get _extensionConflicts() { return load()._extensionConflicts; },
};`,
      }));
    },
  };
}

/**
 * An esbuild plugin: marked compiles its lexer's rules (dozens of regular expressions) when
 * loaded, and a start renders nothing (the shipped fixture's renderings are made at build,
 * domain/render/prerendered.ts). The mock's one use of its values is `new Marked(...)` (the rest
 * are types), made with a world's first rendering: the bundle gives src/ a Marked that loads
 * marked then. Any other value imported from marked fails the build, to be added here.
 */
function markedOnFirstUse() {
  const NS = 'marked-on-first-use';
  return {
    name: NS,
    setup(build) {
      build.onResolve({ filter: /^marked$/ }, async (args) => {
        if (args.pluginData || args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const real = await build.resolve('marked', {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'same-package-once',
        });
        return real.errors.length ? real : { path: real.path, namespace: NS };
      });
      build.onLoad({ filter: /.*/, namespace: NS }, (args) => ({
        resolveDir: path.dirname(args.path),
        loader: 'js',
        contents: `let real;
const load = () => (real ??= require(${JSON.stringify(args.path)}));
export class Marked {
  constructor(...options) {
    return new (load().Marked)(...options);
  }
}`,
      }));
    },
  };
}

/**
 * An esbuild plugin: multer asks type-is 1 (and through it mime-types 2 and mime-db 1.52, whose
 * tables are built when loaded) only whether a request is multipart (`is(req, ['multipart'])`),
 * which the type-is 2 that Express and body-parser load anyway answers alike. Bundling multer with
 * that one spares every start loading a second copy of the MIME tables.
 */
function multerWithExpressTypeIs() {
  return {
    name: 'multer-with-express-type-is',
    setup(build) {
      build.onResolve({ filter: /^type-is$/ }, async (args) => {
        if (!args.importer.includes(`${path.sep}node_modules${path.sep}multer${path.sep}`)) return undefined;
        const express = path.dirname(await realResolve(build, 'express/package.json', ROOT));
        return realResolve(build, 'type-is', express).then((p) => ({ path: p }));
      });
    },
  };
}

/** Where esbuild resolves `specifier` from the folder `from`. */
async function realResolve(build, specifier, from) {
  const result = await build.resolve(specifier, { kind: 'require-call', resolveDir: from });
  if (result.errors.length) throw new Error(`cannot resolve ${specifier} from ${from}`);
  return result.path;
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
