// `npm run bench:start` (a measurement, not a test): how long from launching the mock to its first
// answer (GET /api/v1/server_settings answered 200), for `npm start` on an unchanged checkout and
// for the single executable (first start, which unpacks its files, and later starts). Prints
// the median and the range of RUNS launches each (default 5).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfChanged } from './build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BINARY = path.join(ROOT, 'dist', 'teamchat-mock');
const RUNS = Number(process.env.RUNS ?? 5);

/** Milliseconds from spawn to the first 200 of GET /server_settings. */
async function timeToFirstAnswer(command, args, options) {
  const started = performance.now();
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no address after 60 s: ${out}`)), 60_000);
      child.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+?)[\s)]/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.stderr.on('data', (d) => {
        out += d;
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited with ${code}: ${out}`));
      });
    });
    for (;;) {
      const res = await fetch(`${url}/api/v1/server_settings`).catch(() => null);
      if (res?.status === 200) {
        await res.arrayBuffer();
        return performance.now() - started;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    // npm start runs the server as a child of npm: end the whole group.
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  }
}

async function series(label, make) {
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(await make(i));
  times.sort((a, b) => a - b);
  const ms = (t) => `${Math.round(t)} ms`;
  console.log(
    `${label.padEnd(46)} median ${ms(times[Math.floor(times.length / 2)])}  (min ${ms(times[0])}, max ${ms(times.at(-1))}, ${RUNS} runs)`,
  );
}

await buildIfChanged();
console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)}, node ${process.version}`);
await series('npm start (unchanged checkout) -> first answer', () =>
  timeToFirstAnswer('npm', ['start', '--silent', '--', '--port', '0', '--quiet'], { cwd: ROOT, detached: true }),
);
await series('node dist/src/cli.js -> first answer', () =>
  timeToFirstAnswer(process.execPath, [path.join(ROOT, 'dist/src/cli.js'), '--port', '0', '--quiet'], {
    cwd: ROOT,
    detached: true,
  }),
);

if (!existsSync(BINARY)) {
  console.log('building the single executable (npm run build:binary) ...');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-binary.mjs')], { stdio: 'ignore' });
  if (r.status !== 0) throw new Error('npm run build:binary failed');
}
console.log(`single executable: ${(statSync(BINARY).size / 1024 / 1024).toFixed(1)} MB`);
// Outside the checkout, with no node on PATH, as a team without Node runs it.
const away = mkdtempSync(path.join(os.tmpdir(), 'teamchat-bench-'));
const env = { PATH: path.join(away, 'no-bin'), HOME: away, TEAMCHAT_MOCK_CACHE: path.join(away, 'cache') };
try {
  await series('binary, first start (unpacks) -> first answer', () => {
    rmSync(env.TEAMCHAT_MOCK_CACHE, { recursive: true, force: true });
    return timeToFirstAnswer(BINARY, ['--port', '0', '--quiet'], { cwd: away, env, detached: true });
  });
  await series('binary, later starts -> first answer', () =>
    timeToFirstAnswer(BINARY, ['--port', '0', '--quiet'], { cwd: away, env, detached: true }),
  );
} finally {
  rmSync(away, { recursive: true, force: true });
}
