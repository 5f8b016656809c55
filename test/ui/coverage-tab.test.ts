// The inspector's Coverage tab in Chromium: cells by resource coloured by what was exercised,
// documented errors as chips, and "try it" on an unseen error making the next call answer it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startMockServer, type StartedMock } from '../../src/index.js';
import { api, launchBrowser, openInspector, pageErrors, shot, showTab, SOON } from './browser.js';

let mock: StartedMock;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mock = await startMockServer();
  browser = await launchBrowser();
  page = await openInspector(browser, mock);
});
afterEach(() => {
  expect(pageErrors(page)).toEqual([]);
});
afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

const cell = (operation: string) => page.locator(`.op-cell[data-operation="${operation}"]`);
const chip = (operation: string, code: string) => cell(operation).locator(`.chip[data-code="${code}"]`);

describe('the Coverage tab', () => {
  it('shows a cell per operation by resource, coloured by what the requests exercised', async () => {
    expect((await api(mock, 'hamlet', 'GET', '/users/me')).status).toBe(200);
    expect((await api(mock, 'hamlet', 'POST', '/messages', { type: 'stream', to: 'Denmark', topic: 't' })).status).toBe(
      400,
    );
    await showTab(page, 'coverage');
    await expect.poll(() => cell('get-own-user').getAttribute('data-level'), SOON).not.toBe('none');
    expect(await cell('get-subscriptions').getAttribute('data-level')).toBe('none');
    expect(
      await page.locator('.coverage-row[data-resource="messages"] .op-cell[data-operation="send-message"]').count(),
    ).toBe(1);
    expect(await cell('send-message').locator('.op-calls').textContent()).toBe('1 call');
    expect(await chip('send-message', 'REQUEST_VARIABLE_MISSING').getAttribute('class')).toContain('seen');
    expect(await chip('send-message', 'STREAM_WILDCARD_MENTION_NOT_ALLOWED').getAttribute('class')).toContain('unseen');
    expect(await page.locator('#coverage-summary').textContent()).toMatch(/^2 of \d+ operations called/);
    await shot(page, 'coverage-tab');
  });

  it('"try it" on an unseen error makes the next matching call answer it, and the chip turns seen', async () => {
    await chip('send-message', 'STREAM_WILDCARD_MENTION_NOT_ALLOWED').locator('button', { hasText: 'try it' }).click();
    await expect
      .poll(async () => (await mock.control.scenarios.list()).active.map((a) => a.name), SOON)
      .toContain('stream-wildcard-mention-not-allowed');
    const sent = await api(mock, 'hamlet', 'POST', '/messages', {
      type: 'stream',
      to: 'Denmark',
      topic: 't',
      content: 'hi',
    });
    expect(sent.body.code).toBe('STREAM_WILDCARD_MENTION_NOT_ALLOWED');
    await expect
      .poll(() => chip('send-message', 'STREAM_WILDCARD_MENTION_NOT_ALLOWED').getAttribute('class'), SOON)
      .toMatch(/\bseen\b/);
    await mock.control.scenarios.deactivate('stream-wildcard-mention-not-allowed');

    // An error without a shipped scenario of its name: a one-rule scenario for that operation only, once.
    await chip('send-message', 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED').locator('button').click();
    await expect
      .poll(async () => (await mock.control.scenarios.list()).active.map((a) => a.name), SOON)
      .toContain('topic-wildcard-mention-not-allowed');
    await shot(page, 'coverage-try-it');
  });
});
