// The command line's failures a user meets first: one line on stderr saying what to do, exit 1.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliToEnd } from '../helpers/cli.js';

describe('the command line stops with one line and exit code 1', () => {
  it('for an unknown flag', async () => {
    const r = await runCliToEnd(['--prot', '9991']);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: "teamchat-mock: unknown option '--prot' (Did you mean --port?) (see --help)\n",
    });
  });

  it('for a log format it does not know', async () => {
    const r = await runCliToEnd(['--log-format', 'xml']);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "teamchat-mock: option '--log-format <format>' argument 'xml' is invalid. Allowed choices are text, json. (see --help)\n",
    });
  });

  it('for a --push-target beyond loopback', async () => {
    const r = await runCliToEnd(['--push-target', 'http://example.com/push']);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'teamchat-mock: --push-target: example.com is not a loopback address; allow it with --allow-push-target-host example.com\n',
    });
  });

  it('for a fixture file that does not exist', async () => {
    const r = await runCliToEnd(['--fixture', '/nonexistent/fixture.json']);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: 'teamchat-mock: fixture file /nonexistent/fixture.json does not exist\n',
    });
  });

  describe('for a port that is taken', () => {
    const blocker = createServer();
    let port = 0;
    beforeAll(
      () =>
        new Promise<void>((resolve) =>
          blocker.listen(0, '127.0.0.1', () => {
            port = (blocker.address() as any).port;
            resolve();
          }),
        ),
    );
    afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

    it('names the port and the way out', async () => {
      const r = await runCliToEnd(['--port', String(port), '--quiet']);
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr: `teamchat-mock: port ${port} on 127.0.0.1 is already in use (choose another with --port, or --port 0 for a free one)\n`,
      });
    });
  });
});
