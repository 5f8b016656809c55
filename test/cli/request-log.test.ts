// What the command line prints while it runs: one line per API request, as text or as JSON,
// and nothing but its address with --quiet.
import { describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../helpers/cli.js';
import { basicAuth } from '../helpers/server.js';

const HAMLET = basicAuth('hamlet@zulip.com', 'waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f');

/** Two requests: hamlet's own user, and an unknown route in a sandbox without credentials. */
async function twoRequests(cli: RunningCli): Promise<void> {
  expect((await fetch(`${cli.base}/api/v1/users/me`, { headers: { authorization: HAMLET } })).status).toBe(200);
  expect((await fetch(`${cli.base}/sandbox/s1/api/v1/no/such/route`)).status).toBe(404);
  // The control API is not part of the request log.
  expect((await fetch(`${cli.base}/__mock/info`)).status).toBe(200);
}

/** The last `count` lines of stdout, once the line of the last request (the unknown route) is there. */
async function linesAfterStart(cli: RunningCli, count: number): Promise<string[]> {
  for (let i = 0; i < 200; i++) {
    const lines = cli.stdout().trimEnd().split('\n');
    if (lines.at(-1)!.includes('/no/such/route')) return lines.slice(-count);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`expected ${count} log lines, got: ${cli.stdout()}`);
}

describe('--log-format json', () => {
  it('prints the address as a JSON line, then one JSON line per API request', async () => {
    const cli = await startCli(['--log-format', 'json']);
    try {
      await twoRequests(cli);
      const lines = (await linesAfterStart(cli, 2)).map((l) => JSON.parse(l));
      const [first, ...rest] = cli.stdout().trimEnd().split('\n');
      expect(JSON.parse(first)).toEqual({
        event: 'listening',
        url: cli.base,
        api: `${cli.base}/api/v1`,
        feature_level: 511,
        control: `${cli.base}/__mock`,
      });
      expect(rest).toHaveLength(2);
      for (const line of lines) {
        expect(Date.parse(line.time)).toBeGreaterThan(Date.now() - 60_000);
        expect(line.duration_ms).toBeGreaterThanOrEqual(0);
      }
      expect(lines.map(({ time, duration_ms, ...l }) => l)).toEqual([
        { method: 'GET', path: '/users/me', operation: 'get-own-user', status: 200, user: 'hamlet@zulip.com' },
        { method: 'GET', path: '/no/such/route', operation: null, status: 404, user: null, sandbox: 's1' },
      ]);
    } finally {
      await cli.stop();
    }
  });
});

describe('the default text log', () => {
  it('prints the start-up table, then one line per request', async () => {
    const cli = await startCli([]);
    try {
      await expect.poll(() => cli.stdout(), { timeout: 5000 }).toContain('control API:');
      expect(cli.stdout()).toContain('hamlet@zulip.com');
      await twoRequests(cli);
      const [own, unknown] = await linesAfterStart(cli, 2);
      expect(own).toMatch(/^\d\d:\d\d:\d\d\.\d{3} GET \/users\/me 200 get-own-user \d+\.\dms hamlet@zulip\.com$/);
      expect(unknown).toMatch(/^\d\d:\d\d:\d\d\.\d{3} GET \/no\/such\/route 404 - \d+\.\dms - \[sandbox s1\]$/);
    } finally {
      await cli.stop();
    }
  });
});

describe('--quiet', () => {
  it('prints only the address: no table, no request lines', async () => {
    const cli = await startCli(['--quiet']);
    try {
      await twoRequests(cli);
      await new Promise((r) => setTimeout(r, 200));
      expect(cli.stdout()).toBe(
        `teamchat-mock listening on ${cli.base} (API at ${cli.base}/api/v1, feature level 511)\n`,
      );
    } finally {
      await cli.stop();
    }
  });
});
