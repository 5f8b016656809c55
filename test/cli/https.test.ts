// HTTPS from the command line: --https makes a self-signed certificate for the listening names,
// writes it beside the zuliprc (key owner-only), prints its fingerprint, and every address the mock
// gives (realm_url, zuliprc, the printed one) is https. Python requests and Node verify against it.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { findPython } from '../../scripts/prerequisites.mjs';
import { ROOT, runCliToEnd, startCli, type RunningCli } from '../helpers/cli.js';
import { httpsGet } from '../helpers/https.js';
import { selfSignedCertificate } from '../../src/http/tls.js';

/** tsx by its file: these CLIs run in a folder of their own, where a bare 'tsx' does not resolve. */
const command = [
  process.execPath,
  '--import',
  pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href,
  path.join(ROOT, 'src/cli.ts'),
];
const running: RunningCli[] = [];
afterEach(async () => {
  for (const cli of running.splice(0)) await cli.stop();
});

async function start(args: string[]): Promise<{ cli: RunningCli; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'teamchat-https-'));
  const cli = await startCli(args, { cwd: dir, command });
  running.push(cli);
  // The certificate lines follow the address; the control API line comes last (not with --quiet).
  const done = args.includes('--quiet') ? /fingerprint: / : /control API: /;
  for (let i = 0; i < 200 && !done.test(cli.stdout()); i++) await new Promise((r) => setTimeout(r, 50));
  return { cli, dir };
}

const get = httpsGet;

describe('--https', { timeout: 60_000 }, () => {
  it('serves HTTPS with a self-signed certificate written beside the zuliprc, its fingerprint printed, every address in https', async () => {
    const { cli, dir } = await start(['--https', '--zuliprc', 'hamlet@zulip.com']);
    expect(cli.base).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const cert = readFileSync(path.join(dir, 'teamchat-mock-cert.pem'), 'utf8');
    expect(statSync(path.join(dir, 'teamchat-mock-key.pem')).mode & 0o777).toBe(0o600);
    const x509 = new X509Certificate(cert);
    expect(cli.stdout()).toContain(`TLS certificate SHA-256 fingerprint: ${x509.fingerprint256}`);
    expect(x509.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(readFileSync(path.join(dir, 'zuliprc'), 'utf8')).toContain(`\nsite=${cli.base}\n`);
    const settings = await get(`${cli.base}/api/v1/server_settings`, cert);
    expect(JSON.parse(settings.body).realm_url).toBe(cli.base);
    // By the name localhost too, and never without trusting the certificate.
    expect((await get(`${cli.base.replace('127.0.0.1', 'localhost')}/api/v1/server_settings`, cert)).status).toBe(200);
    await expect(get(`${cli.base}/api/v1/server_settings`)).rejects.toThrow(/self.signed/i);
  });

  it('Python requests verifies the mock against the written certificate, and refuses it without', async () => {
    const python = findPython();
    if ('missing' in python) throw new Error(`${python.missing}: run npm test, which installs it`);
    const { cli, dir } = await start(['--https', '--public-url', 'https://localhost:1']);
    const base = cli.base.replace('127.0.0.1', 'localhost');
    const script = [
      'import sys, requests',
      'base, cert = sys.argv[1], sys.argv[2]',
      "me = requests.get(base + '/api/v1/users/me', auth=('hamlet@zulip.com', 'waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f'), verify=cert).json()",
      "print(me['result'], me['email'])",
      'try:',
      "    requests.get(base + '/api/v1/server_settings')",
      "    print('unverified: accepted')",
      'except requests.exceptions.SSLError:',
      "    print('unverified: refused')",
    ].join('\n');
    const { stdout } = await promisify(execFile)(
      python.path,
      ['-c', script, base, path.join(dir, 'teamchat-mock-cert.pem')],
      { timeout: 30_000 },
    );
    expect(stdout).toBe('success hamlet@zulip.com\nunverified: refused\n');
  });

  it('replaces a planted symlink and never writes through it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'teamchat-https-'));
    const target = path.join(dir, 'elsewhere');
    writeFileSync(target, 'precious');
    symlinkSync(target, path.join(dir, 'teamchat-mock-key.pem'));
    const cli = await startCli(['--https'], { cwd: dir, command });
    running.push(cli);
    for (let i = 0; i < 200 && !/control API: /.test(cli.stdout()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(readFileSync(path.join(dir, 'teamchat-mock-key.pem'), 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });
});

describe('--tls-cert and --tls-key', { timeout: 60_000 }, () => {
  const files = { cert: '', key: '', otherKey: '' };
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'teamchat-tls-'));
    const [mine, other] = await Promise.all([
      selfSignedCertificate(['localhost', '127.0.0.1']),
      selfSignedCertificate(['localhost']),
    ]);
    for (const [name, text] of [
      ['cert', mine.cert],
      ['key', mine.key],
      ['otherKey', other.key],
    ] as const) {
      files[name] = path.join(dir, `${name}.pem`);
      writeFileSync(files[name], text);
    }
  });

  it('serve HTTPS with the given files, printing their fingerprint and writing nothing', async () => {
    const { cli, dir } = await start(['--tls-cert', files.cert, '--tls-key', files.key]);
    expect(cli.base).toMatch(/^https:/);
    expect(cli.stdout()).toContain(`fingerprint: ${new X509Certificate(readFileSync(files.cert)).fingerprint256}`);
    expect((await get(`${cli.base}/api/v1/server_settings`, readFileSync(files.cert, 'utf8'))).status).toBe(200);
    expect(existsSync(path.join(dir, 'teamchat-mock-cert.pem'))).toBe(false);
  });

  it('refuse one without the other, a key of another certificate and an unreadable file, in one line', async () => {
    const { cert, otherKey } = files;
    const [alone, both, mismatch, unreadable] = await Promise.all([
      runCliToEnd(['--tls-cert', cert]),
      runCliToEnd(['--https', '--tls-cert', cert, '--tls-key', otherKey]),
      runCliToEnd(['--port', '0', '--tls-cert', cert, '--tls-key', otherKey]),
      runCliToEnd(['--tls-cert', cert, '--tls-key', '/nonexistent/key.pem']),
    ]);
    expect(alone.stderr).toBe('teamchat-mock: --tls-cert needs --tls-key\n');
    expect(both.stderr).toBe(
      'teamchat-mock: --https makes its own certificate: give either --https or --tls-cert and --tls-key\n',
    );
    expect(mismatch.stderr).toBe(
      'teamchat-mock: --tls-cert/--tls-key: the TLS key does not belong to the certificate\n',
    );
    expect(unreadable.stderr).toBe('teamchat-mock: --tls-key: cannot read /nonexistent/key.pem (ENOENT)\n');
  });
});
