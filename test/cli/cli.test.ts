// The command line as a user runs it: the server started by src/cli.ts in a folder of its own,
// and what it writes there.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** tsx by its file: the CLI runs in a folder of its own, where a bare 'tsx' does not resolve. */
const tsx = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGTERM');
});

/** Starts the CLI in `cwd`; resolves with its base URL and output once it has said all it says at start. */
function startCli(cwd: string, args: string[]): Promise<{ base: string; out: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsx, path.join(root, 'src/cli.ts'), '--port', '0', ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.push(child);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 20000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+) /.exec(out);
      // The control API line is printed last (after the zuliprc is written).
      if (
        m &&
        /control API: /.test(out) &&
        (!args.includes('--zuliprc') || /zuliprc/.test(out.slice(out.indexOf('control API'))))
      ) {
        clearTimeout(timer);
        resolve({ base: m[1], out: () => out });
      }
    });
    child.stderr!.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
}

describe('--zuliprc', () => {
  it('writes the file readable by its owner only, even over a world-readable one, with the real site', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'teamchat-cli-'));
    writeFileSync(path.join(dir, 'zuliprc'), 'old', { mode: 0o644 });
    const { base } = await startCli(dir, ['--zuliprc', 'hamlet@zulip.com']);
    const file = path.join(dir, 'zuliprc');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(
      `[api]\nemail=hamlet@zulip.com\nkey=waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f\nsite=${base}\n`,
    );
  });
});

describe('--public-url', () => {
  it('is the site of the zuliprc and the realm_url the server reports', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'teamchat-cli-'));
    const { base } = await startCli(dir, [
      '--public-url',
      'https://chat.example.com/',
      '--zuliprc',
      'hamlet@zulip.com',
    ]);
    expect(readFileSync(path.join(dir, 'zuliprc'), 'utf8')).toContain('\nsite=https://chat.example.com\n');
    const settings = await (await fetch(`${base}/api/v1/server_settings`)).json();
    expect(settings.realm_url).toBe('https://chat.example.com');
  });
});
