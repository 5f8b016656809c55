// --coverage-report: the report written when the server closes (mock.close() and SIGTERM), as JSON,
// or as a self-contained HTML page that opens in Chromium without any network.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer } from '../helpers/server.js';
import { startCli } from '../helpers/cli.js';
import { launchBrowser } from '../ui/browser.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'teamchat-coverage-'));
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('--coverage-report', () => {
  it('writes the JSON report of every sandbox when the server closes', async () => {
    const file = path.join(dir, 'coverage.json');
    const t = await startTestServer({ coverageReport: file });
    await t.as('hamlet').get('/users/me');
    await t.as('hamlet', { 'X-Mock-Sandbox': 'report-b' }).get('/users/me');
    await t.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic: 't' });
    await t.close();
    const report = JSON.parse(readFileSync(file, 'utf8'));
    expect(report.sandbox).toBe('*');
    const own = report.operations.find((o: any) => o.operation === 'get-own-user');
    expect(own).toMatchObject({ calls: 2, statuses: { 200: 2 } });
    expect(report.operations.find((o: any) => o.operation === 'send-message').error_codes).toEqual({
      REQUEST_VARIABLE_MISSING: 1,
    });
    expect(report.totals.requests).toBe(3);
  });

  it('writes an HTML page on SIGTERM that Chromium shows with no network', async () => {
    const file = path.join(dir, 'coverage.html');
    const cli = await startCli(['--quiet', '--coverage-report', file]);
    const auth = `Basic ${Buffer.from('hamlet@zulip.com:waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f').toString('base64')}`;
    expect((await fetch(`${cli.base}/api/v1/users/me`, { headers: { authorization: auth } })).status).toBe(200);
    await cli.stop();
    const context = await browser.newContext({ offline: true, javaScriptEnabled: false });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${file}`);
    expect(await page.locator('#totals').textContent()).toMatch(
      /^1 of \d+ operations called, 0 of \d+ documented errors seen, 1 requests/,
    );
    const cell = page.locator('[data-operation="get-own-user"]');
    expect(await cell.getAttribute('class')).toMatch(/\b(full|low|some)\b/);
    expect(await page.locator('[data-operation="get-subscriptions"]').getAttribute('class')).toContain('none');
    await page.screenshot({ path: 'test-results/screenshots/coverage-report.png', fullPage: false });
    expect(requests).toEqual([`file://${file}`]);
    await context.close();
  });
});
