// `teamchat-mock verify` against a second teamchat-mock playing the real server: it passes against
// the mock as it is, names every field of an answer that drifted, writes within its own channel
// quickly, and leaves a JUnit file that parses as XML.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type StartedMock } from '../../src/index.js';
import { runCliToEnd } from '../helpers/cli.js';
import { takeViolations } from '../setup/contract-guard.js';

let upstream: StartedMock;
let credentials: string[];
const dir = mkdtempSync(path.join(tmpdir(), 'verify-'));

beforeAll(async () => {
  upstream = await startMockServer();
  const h = upstream.user('hamlet');
  credentials = ['--target', upstream.baseUrl, '--email', h.email, '--api-key', h.api_key];
});
afterAll(async () => {
  await upstream?.close();
});

describe('teamchat-mock verify', () => {
  it('passes against the mock, writing in its own channel in under 10 s, and cleans up', async () => {
    const report = path.join(dir, 'junit.xml');
    const run = await runCliToEnd(['verify', ...credentials, '--write', '--report', report]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.filter((l) => !l.startsWith('ok   '))).toEqual([
      expect.stringMatching(
        /^verified (\d+) operations of http:\/\/127\.0\.0\.1:\d+ at feature level 511: \1 ok, 0 differ from the description \((\d+\.\d) s\)$/,
      ),
    ]);
    // The run itself (requests and checks), without starting node: well under the 10 s it must take at most.
    expect(Number(/\((\d+\.\d) s\)$/.exec(lines.at(-1)!)![1])).toBeLessThan(10);
    expect(lines).toEqual(
      expect.arrayContaining([
        'ok   get-own-user GET /users/me 200',
        'ok   register-queue POST /register 200',
        'ok   get-events GET /events 200',
        'ok   delete-queue DELETE /events 200',
        'ok   render-message POST /messages/render 200',
        'ok   subscribe POST /users/me/subscriptions 200',
        'ok   unsubscribe DELETE /users/me/subscriptions 200',
      ]),
    );
    // The JUnit file parses, and holds one passing case per line.
    const xml = readFileSync(report, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const suite = new XMLParser({ ignoreAttributes: false }).parse(xml).testsuite;
    expect(suite['@_failures']).toBe('0');
    expect(suite.testcase).toHaveLength(lines.length - 1);
    // Cleaned up: Hamlet is no longer subscribed to the run's channel, and its message is gone.
    const h = upstream.user('hamlet');
    const auth = { authorization: `Basic ${Buffer.from(`${h.email}:${h.api_key}`).toString('base64')}` };
    const subs = (await (
      await fetch(`${upstream.baseUrl}/api/v1/users/me/subscriptions`, { headers: auth })
    ).json()) as { subscriptions: Array<{ name: string }> };
    expect(subs.subscriptions.map((s) => s.name)).not.toContain('teamchat-mock-verify');
    const topics = upstream.server.world.store.messages.filter((m) => m.topic.startsWith('verify '));
    expect(topics).toEqual([]);
  });

  it('fails against an upstream whose answer drifted, naming each field, in JSON and JUnit', async () => {
    await upstream.control.scenarios.activate({
      name: 'drifted-me',
      rules: [
        {
          operation: 'get-own-user',
          respond: {
            status: 200,
            body: {
              result: 'success',
              msg: '',
              user_id: 'ten',
              email: 'hamlet@zulip.com',
              full_name: 'King Hamlet',
              is_admin: false,
              is_owner: false,
              is_guest: false,
              is_bot: false,
              role: 400,
              timezone: '',
              is_active: true,
              date_joined: '2024-01-01T00:00:00Z',
              delivery_email: 'hamlet@zulip.com',
              profile_data: {},
              max_message_id: 1,
              avatar_version: 1,
              brand_new_field: true,
            },
          },
        },
      ],
    });
    try {
      const json = path.join(dir, 'report.json');
      const xmlFile = path.join(dir, 'report.xml');
      const run = await runCliToEnd(['verify', ...credentials, '--report', json]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        '\nDIFF get-own-user GET /users/me 200: /avatar_url: required field is missing; /user_id: must be integer; /brand_new_field: field is not in the description\n',
      );
      expect(run.stdout).toMatch(
        /\nverified (\d+) operations of http:\/\/127\.0\.0\.1:\d+ at feature level 511: \d+ ok, 1 differ from the description \(\d+\.\d s\)\n$/,
      );
      const report = JSON.parse(readFileSync(json, 'utf8'));
      expect(report.results.filter((r: any) => !r.ok)).toEqual([
        {
          operation: 'get-own-user',
          method: 'GET',
          path: '/users/me',
          status: 200,
          ok: false,
          problems: [
            { path: '/avatar_url', message: 'required field is missing' },
            { path: '/user_id', message: 'must be integer' },
            { path: '/brand_new_field', message: 'field is not in the description' },
          ],
        },
      ]);
      const again = await runCliToEnd(['verify', ...credentials, '--report', xmlFile]);
      expect(again.code).toBe(1);
      const xml = readFileSync(xmlFile, 'utf8');
      expect(XMLValidator.validate(xml)).toBe(true);
      const suite = new XMLParser({ ignoreAttributes: false }).parse(xml).testsuite;
      expect(suite['@_failures']).toBe('1');
      const failed = suite.testcase.filter((c: any) => c.failure);
      expect(failed.map((c: any) => [c['@_name'], c.failure['@_message']])).toEqual([
        [
          'get-own-user GET /users/me',
          '/avatar_url: required field is missing; /user_id: must be integer; /brand_new_field: field is not in the description',
        ],
      ]);
    } finally {
      await upstream.control.scenarios.deactivate();
      takeViolations(); // the stand-in upstream's own report of its drifted answer
    }
  });

  it('reads the credentials and the site from a zuliprc, and refuses to run without them', async () => {
    const h = upstream.user('hamlet');
    const rc = path.join(dir, 'zuliprc');
    writeFileSync(rc, `[api]\nemail=${h.email}\nkey=${h.api_key}\nsite=${upstream.baseUrl}\n`);
    const run = await runCliToEnd(['verify', '--zuliprc', rc]);
    expect(run.code).toBe(0);
    const none = await runCliToEnd(['verify', '--target', upstream.baseUrl]);
    expect(none).toEqual({
      code: 1,
      stdout: '',
      stderr: 'teamchat-mock: verify needs --target, --email and --api-key (or a --zuliprc with site, email and key)\n',
    });
  });
});
