// The inspector's Outbox tab in Chromium: emails and push notifications as the mock records
// them, live while the tab is open (an E2EE one with what it decrypts to), filtered by kind, and cleared.
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

const items = () => page.locator('#outbox-list > li');

describe('the Outbox tab', () => {
  it('shows the invitation email with its link, then new push notifications live', async () => {
    expect(
      (await api(mock, 'iago', 'POST', '/invites', { invitee_emails: 'guest@example.com', stream_ids: [] })).status,
    ).toBe(200);
    await showTab(page, 'outbox');
    await expect.poll(() => items().count(), SOON).toBe(1);
    const email = items().first();
    expect(await email.getAttribute('data-kind')).toBe('email');
    expect(await email.locator('.outbox-head').textContent()).toContain('Iago has invited you to join Zulip Dev');
    await email.locator('summary').click();
    expect(await email.locator('.outbox-links').textContent()).toMatch(
      /activate_url: http:\/\/.*\/accounts\/do_confirm\/[a-z2-7]{24}/,
    );
    await shot(page, 'outbox-email');

    // Othello has a phone registered by token; a direct message to him arrives while the tab is open.
    await api(mock, 'othello', 'POST', '/users/me/android_gcm_reg_id', { token: 'fcm-token' });
    await api(mock, 'iago', 'POST', '/messages', {
      type: 'direct',
      to: [mock.user('othello').user_id],
      content: 'Ping from the inspector test',
    });
    await expect.poll(() => items().first().getAttribute('data-kind'), SOON).toBe('push');
    const push = items().first();
    expect(await push.locator('.outbox-head').textContent()).toContain('android message');
    await push.locator('summary').click();
    expect(await push.locator('pre').textContent()).toContain('"content": "Ping from the inspector test"');
    await shot(page, 'outbox-push');
  });

  it('shows an E2EE notification sealed, with what it decrypts to beside', async () => {
    expect((await api(mock, 'hamlet', 'POST', '/mobile_push/e2ee/test_notification', { device_id: 1 })).status).toBe(
      200,
    );
    await expect.poll(() => items().first().locator('.outbox-head').textContent(), SOON).toContain('e2ee test');
    const push = items().first();
    // A test notification is about no message.
    expect(await push.locator('.outbox-head').textContent()).not.toContain('message');
    const [payload, decrypted] = [push.locator('details').nth(0), push.locator('details').nth(1)];
    expect(await decrypted.locator('summary').textContent()).toBe('Decrypted (the mock’s addition)');
    await payload.locator('summary').click();
    await decrypted.locator('summary').click();
    expect(await payload.locator('pre').textContent()).toMatch(/"encrypted_data": "[A-Za-z0-9+/]+=*"/);
    expect(await decrypted.locator('pre').textContent()).toContain('"type": "test"');
    await shot(page, 'outbox-e2ee');
  });

  it('filters by kind and clears', async () => {
    await page.locator('#outbox-kind').selectOption('email');
    await expect
      .poll(async () => (await items().evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).join(), SOON)
      .toBe('email');
    await page.locator('#outbox-kind').selectOption('');
    await page.locator('#outbox-clear').click();
    await expect.poll(() => items().count(), SOON).toBe(0);
    expect((await mock.control.outbox.list()).count).toBe(0);
  });
});
