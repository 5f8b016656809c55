// What users install: the npm package and the single executable, each built from a clean copy
// of the checkout (as from a fresh clone: no dist/) and run from a folder outside the repository.
// Slow (a build, an npm install, a 100 MB binary), so it runs in CI (.ci/run sets
// TEAMCHAT_DIST_TESTS=1) and on demand, not in every local `npm test`.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startCli } from '../helpers/cli.js';
import { basicAuth } from '../helpers/server.js';

const run = promisify(execFile);
const enabled = process.env.TEAMCHAT_DIST_TESTS === '1';
const HAMLET = basicAuth('hamlet@zulip.com', 'waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f');
const NPM_QUIET = {
  npm_config_loglevel: 'error',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

/** The README's curls, against a running mock: every answer also passed --strict-responses. */
async function answersTheReadmeCurls(base: string): Promise<void> {
  const settings = await fetch(`${base}/api/v1/server_settings`);
  expect(settings.status).toBe(200);
  expect(await settings.json()).toMatchObject({ result: 'success', zulip_feature_level: 511 });
  const me = await fetch(`${base}/api/v1/users/me`, { headers: { authorization: HAMLET } });
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ result: 'success', email: 'hamlet@zulip.com', full_name: 'King Hamlet' });
  const subs = await fetch(`${base}/api/v1/users/me/subscriptions`, { headers: { authorization: HAMLET } });
  expect(subs.status).toBe(200);
  const sent = await fetch(`${base}/api/v1/messages`, {
    method: 'POST',
    headers: { authorization: HAMLET },
    body: new URLSearchParams({ type: 'stream', to: 'Denmark', topic: 'greetings', content: 'Hello from curl' }),
  });
  expect(sent.status).toBe(200);
  const verify = await fetch(`${base}/__mock/journal/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: 500 }),
  });
  expect(await verify.json()).toMatchObject({ count: 0 });
}

describe.skipIf(!enabled)('the package and the single executable (TEAMCHAT_DIST_TESTS=1)', () => {
  let work: string;
  let clone: string;

  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'teamchat-dist-'));
    clone = path.join(work, 'clone');
    // The checkout's files as git sees them (tracked and new, not ignored): no dist/, no test-results/.
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean);
    for (const rel of files) {
      if (!existsSync(path.join(ROOT, rel))) continue;
      mkdirSync(path.dirname(path.join(clone, rel)), { recursive: true });
      cpSync(path.join(ROOT, rel), path.join(clone, rel));
    }
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
  });
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  describe('npm pack, installed in an empty folder', () => {
    let app: string;
    let tarball: string;
    let packed: string[];

    beforeAll(async () => {
      const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], {
        cwd: clone,
        env: { ...process.env, ...NPM_QUIET },
        maxBuffer: 64 << 20,
      });
      const [info] = JSON.parse(stdout.slice(stdout.indexOf('[')));
      tarball = path.join(work, info.filename);
      packed = info.files.map((f: { path: string }) => f.path);
      app = path.join(work, 'app');
      mkdirSync(app);
      writeFileSync(
        path.join(app, 'package.json'),
        JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
      );
      await run('npm', ['install', '--no-save', '--prefer-offline', tarball], {
        cwd: app,
        env: { ...process.env, ...NPM_QUIET },
      });
    }, 240_000);

    it('ships what runs and no test, source map or build file', () => {
      expect(packed).toEqual(
        expect.arrayContaining([
          'dist/src/cli.js',
          'dist/src/index.js',
          'dist/src/index.d.ts',
          'dist/openapi-bundle/api.json',
          'openapi/api.yaml',
          'fixtures/default.json',
          'scenarios/bad-event-queue.ts',
          'src/ui/index.html',
          'README.md',
          'docs/README.md',
          'LICENSE',
          'package.json',
        ]),
      );
      expect(
        packed.filter((f) => /^(test|bench|scripts|examples)\/|\.map$|^dist\/src\/binary\/|^src\/(?!ui\/)/.test(f)),
      ).toEqual([]);
    });

    it('npx teamchat-mock starts on the embedded default and answers', async () => {
      const cli = await startCli(['--strict-responses', '--quiet'], {
        command: ['npx', '--no-install', 'teamchat-mock'],
        cwd: app,
        timeoutMs: 60_000,
      });
      try {
        expect(cli.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        await answersTheReadmeCurls(cli.base);
      } finally {
        await cli.stop();
      }
      // npx runs the mock as its own child: stopping npx must stop that one too.
      expect(await stopsAnswering(cli.base)).toBe(true);
    });

    it('startMockServer can be imported, with its types', async () => {
      writeFileSync(
        path.join(app, 'consumer.ts'),
        [
          "import { startMockServer, type StartedMock } from 'teamchat-mock';",
          'const mock: StartedMock = await startMockServer();',
          'const res = await fetch(`${mock.baseUrl}/api/v1/server_settings`);',
          "const hamlet: string = mock.user('hamlet').email;",
          "console.log(res.status, hamlet, (await mock.control.journal.verify({ operation: 'get-server-settings' })).count);",
          'await mock.close();',
        ].join('\n'),
      );
      await run(
        process.execPath,
        [
          path.join(ROOT, 'node_modules/typescript/bin/tsc'),
          '--noEmit',
          '--strict',
          '--target',
          'es2022',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--types',
          'node',
          '--typeRoots',
          path.join(ROOT, 'node_modules/@types'),
          'consumer.ts',
        ],
        { cwd: app },
      ).catch((err) => {
        throw new Error(`the package's types do not check:\n${err.stdout}`);
      });
      writeFileSync(
        path.join(app, 'consumer.mjs'),
        [
          "import { startMockServer } from 'teamchat-mock';",
          'const mock = await startMockServer();',
          'const res = await fetch(`${mock.baseUrl}/api/v1/server_settings`);',
          "console.log(res.status, mock.user('hamlet').email, (await mock.control.journal.verify({ operation: 'get-server-settings' })).count);",
          'await mock.close();',
        ].join('\n'),
      );
      const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: app });
      expect(stdout).toBe('200 hamlet@zulip.com 1\n');
    }, 60_000);
  });

  describe('the single executable, with no node on PATH', () => {
    let away: string;
    let env: NodeJS.ProcessEnv;

    beforeAll(async () => {
      await run(process.execPath, [path.join(clone, 'scripts/build.mjs'), '--if-changed'], { cwd: clone });
      await run(process.execPath, [path.join(clone, 'scripts/build-binary.mjs')], { cwd: clone });
      away = path.join(work, 'elsewhere');
      mkdirSync(path.join(away, 'bin'), { recursive: true });
      cpSync(path.join(clone, 'dist/teamchat-mock'), path.join(away, 'teamchat-mock'));
      // PATH holds one empty folder: no node, no npm, nothing.
      env = { PATH: path.join(away, 'bin'), HOME: away, TEAMCHAT_MOCK_CACHE: path.join(away, 'cache') };
    }, 240_000);

    it('has no node to lean on', () => {
      expect(readdirSync(path.join(away, 'bin'))).toEqual([]);
    });

    it('starts and answers the README curls', async () => {
      const cli = await startCli(['--strict-responses', '--quiet'], {
        command: [path.join(away, 'teamchat-mock')],
        cwd: away,
        env,
        timeoutMs: 60_000,
      });
      try {
        await answersTheReadmeCurls(cli.base);
        // The inspector and the shipped scenarios (a TypeScript one among them) are inside.
        const ui = await fetch(`${cli.base}/__mock/ui/`);
        expect(ui.status).toBe(200);
        expect(await ui.text()).toContain('<!doctype html>');
        const on = await fetch(`${cli.base}/__mock/scenarios`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"name":"bad-event-queue"}',
        });
        expect(on.status).toBe(200);
        const events = await fetch(`${cli.base}/api/v1/events?queue_id=gone&last_event_id=-1`, {
          headers: { authorization: HAMLET },
        });
        expect(await events.json()).toEqual({
          result: 'error',
          msg: 'Bad event queue ID: gone',
          code: 'BAD_EVENT_QUEUE_ID',
          queue_id: 'gone',
        });
      } finally {
        await cli.stop();
      }
    });
  });
});

/** Whether nothing answers at `base` any more (asked for up to 5 s). */
async function stopsAnswering(base: string): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${base}/api/v1/server_settings`);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
