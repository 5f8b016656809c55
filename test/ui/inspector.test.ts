// The web inspector at /__mock/ui, driven in a real (headless) Chromium against a real running
// mock: the live journal and its detail, filters, scenarios, the clock, the state and reset.
// Screenshots of each view go to test-results/screenshots/ (layouts: inspector-layout.test.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startMockServer, type StartedMock } from '../../src/index.js';
import { takeViolations } from '../setup/contract-guard.js';
import {
  api as callApi,
  entries,
  launchBrowser,
  openInspector,
  pageErrors,
  shot,
  showTab as tab,
  SOON,
} from './browser.js';

let mock: StartedMock;
let browser: Browser;
let page: Page;

const api = (who: string, method: string, path: string, params: Record<string, unknown> = {}) =>
  callApi(mock, who, method, path, params);

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

describe('the page', () => {
  it('is served by the mock with its assets, and its header shows the version and feature level', async () => {
    const res = await fetch(`${mock.baseUrl}/__mock/ui`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/__mock/ui/');
    const script = await fetch(`${mock.baseUrl}/__mock/ui/main.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    const info = await mock.control.info();
    await expect
      .poll(() => page.locator('#server-info').textContent(), SOON)
      .toContain(`Zulip ${info.zulip_version} · feature level ${info.zulip_feature_level}`);
    expect(await page.locator('#live-status').textContent()).toBe('Live');
  });
});

describe('the journal', () => {
  it('shows a message sent through the API without reloading, and opens to its parameters and response', async () => {
    await page.evaluate(() => {
      (window as any).sameDocument = true;
    });
    const sent = await api('hamlet', 'POST', '/messages', {
      type: 'stream',
      to: 'Denmark',
      topic: 'inspector',
      content: 'Hello from the inspector test',
    });
    expect(sent.status).toBe(200);
    const entry = entries(page).filter({ hasText: 'send-message' }).first();
    await entry.waitFor(SOON);
    await expect.poll(() => entry.textContent()).toMatch(/200POST\/messages.*send-message.*hamlet@zulip\.com/);
    expect(await page.evaluate(() => (window as any).sameDocument)).toBe(true);
    await shot(page, 'journal');

    await entry.locator('button').click();
    const detail = page.locator('#journal-detail');
    await expect.poll(() => detail.locator('h2').textContent()).toBe('POST /messages');
    const params = Object.fromEntries(
      await detail
        .locator('.params-table tr')
        .evaluateAll((rows) =>
          rows.map((r) => [r.querySelector('th')!.textContent, r.querySelector('td')!.textContent]),
        ),
    );
    expect(params).toMatchObject({
      type: '"stream"',
      to: '"Denmark"',
      topic: '"inspector"',
      content: '"Hello from the inspector test"',
    });
    expect(await detail.locator('pre.json').textContent()).toContain(`"id": ${sent.body.id}`);
    expect(await detail.locator('.facts').textContent()).toContain('send-message');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('detail-title');
    await shot(page, 'detail');
  });

  it('filters by operation, user and status', async () => {
    expect(
      (await api('othello', 'POST', '/messages', { type: 'stream', to: 'Denmark', topic: 'inspector' })).status,
    ).toBe(400);
    expect((await api('hamlet', 'GET', '/users/me')).status).toBe(200);
    await entries(page).filter({ hasText: 'othello@zulip.com' }).first().waitFor(SOON);
    const total = await entries(page).count();
    await page.locator('#filter-operation').fill('send-message');
    expect(await entries(page).count()).toBe(2);
    await page.locator('#filter-user').selectOption('othello@zulip.com');
    expect(await entries(page).count()).toBe(1);
    expect(await entries(page).first().textContent()).toContain('REQUEST_VARIABLE_MISSING');
    await page.locator('#filter-operation').fill('');
    await page.locator('#filter-user').selectOption('');
    await page.locator('#filter-status').selectOption('4xx');
    expect(await entries(page).allTextContents()).toEqual([expect.stringContaining('othello@zulip.com')]);
    await page.locator('#filter-status').selectOption('200');
    expect(await entries(page).count()).toBe(total - 1);
    await page.locator('#filter-status').selectOption('');
    expect(await entries(page).count()).toBe(total);
  });

  it('highlights a response that breaks the description and shows its problems with their JSON paths', async () => {
    await mock.control.scenarios.activate({
      name: 'broken-send',
      rules: [{ operation: 'send-message', once: true, respond: { success: { id: 'not a number' } } }],
    });
    await api('hamlet', 'POST', '/messages', {
      type: 'stream',
      to: 'Denmark',
      topic: 'inspector',
      content: 'answered wrongly',
    });
    const violations = takeViolations();
    expect(violations.map((v) => v.operation)).toEqual(['send-message']);
    const entry = entries(page).first();
    await expect.poll(() => entry.getAttribute('class'), SOON).toContain('has-problems');
    expect(await entry.textContent()).toMatch(/⚠ \d+ problems?/);
    await entry.locator('button').click();
    const listed = await page.locator('#journal-detail .problems li').allTextContents();
    expect(listed).toEqual(violations[0].problems.map((p) => `${p.path || '/'} ${p.message}`));
    expect(listed).toContain('/id must be integer');
    await shot(page, 'problems');
    await mock.control.scenarios.deactivate('broken-send');
  });
});

describe('the scenarios panel', () => {
  it('toggles no-active-push-device: the next test notification fails with it, the journal and hit count show it', async () => {
    await tab(page, 'scenarios');
    const toggle = page.locator('#scenario-no-active-push-device');
    expect(await toggle.isChecked()).toBe(false);
    await page.locator('label[for="scenario-no-active-push-device"]').click();
    await expect
      .poll(async () => (await mock.control.scenarios.list()).active.map((a) => a.name), SOON)
      .toEqual(['no-active-push-device']);

    const res = await api('hamlet', 'POST', '/mobile_push/e2ee/test_notification');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('NO_ACTIVE_PUSH_DEVICE');
    const item = page.locator('li[data-name="no-active-push-device"]');
    await expect.poll(() => item.locator('.hits').textContent(), SOON).toBe('1 hit');
    expect(await page.locator('#scenario-count').textContent()).toBe('1');
    await item.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, 'scenarios');

    await tab(page, 'journal');
    const entry = entries(page).first();
    expect(await entry.textContent()).toMatch(
      /400POST\/mobile_push\/e2ee\/test_notification.*NO_ACTIVE_PUSH_DEVICE.*scenario no-active-push-device/,
    );

    await tab(page, 'scenarios');
    await page.locator('#scenario-no-active-push-device').click();
    await expect.poll(async () => (await mock.control.scenarios.list()).active.length, SOON).toBe(0);
    expect((await api('hamlet', 'POST', '/mobile_push/e2ee/test_notification')).status).toBe(200);
  });
});

describe('the clock panel and the state panel', () => {
  it('delivers a scheduled message when the clock is moved to the next delivery from the page', async () => {
    const denmark = mock.server.world.store.streams.by('name', 'denmark')!;
    const at = (await mock.control.clock.get()).now + 3600;
    const scheduled = await api('hamlet', 'POST', '/scheduled_messages', {
      type: 'stream',
      to: denmark.stream_id,
      topic: 'later',
      content: 'Scheduled from the inspector test',
      scheduled_delivery_timestamp: at,
    });
    expect(scheduled.status).toBe(200);
    const id = scheduled.body.scheduled_message_id;

    await tab(page, 'clock');
    await expect
      .poll(() => page.locator('#clock-next time').getAttribute('datetime'), SOON)
      .toBe(new Date(at * 1000).toISOString());
    await page.locator('#clock-to-next').click();
    await expect.poll(async () => (await mock.control.clock.get()).now, SOON).toBeGreaterThanOrEqual(at);
    await shot(page, 'clock');

    await tab(page, 'state');
    const row = page.locator('.scheduled-table tbody tr').filter({ hasText: `#${id}` });
    await expect.poll(() => row.textContent(), SOON).toMatch(/delivered: message #\d+/);
    const messageId = Number(/delivered: message #(\d+)/.exec((await row.textContent())!)![1]);
    const state = await mock.control.state.export();
    expect(state.messages.find((m) => m.id === messageId)).toMatchObject({
      content: 'Scheduled from the inspector test',
      topic: 'later',
      stream_id: denmark.stream_id,
    });
    const topic = page.locator('#state-messages .topic').filter({ hasText: 'later' });
    expect(await topic.textContent()).toContain('Scheduled from the inspector test');
    expect(await page.locator('.users-table tbody tr').filter({ hasText: 'hamlet@zulip.com' }).textContent()).toMatch(
      new RegExp(`King Hamlet.*Member.*yes.*${mock.user('hamlet').api_key}`),
    );
    expect(await page.locator('.channel').filter({ hasText: '#Denmark' }).textContent()).toContain('King Hamlet');
    await shot(page, 'state', true);
    await row.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(page, 'state-scheduled');
  });

  it('lists push devices, devices registered through the API among them', async () => {
    expect((await api('cordelia', 'POST', '/users/me/android_gcm_reg_id', { token: 'inspector-token' })).status).toBe(
      200,
    );
    const device = (await api('cordelia', 'POST', '/register_client_device')).body.device_id;
    expect(
      (
        await api('cordelia', 'POST', '/mobile_push/register', {
          device_id: device,
          push_key: 'MTaUDJDMWypQ1WufZ1NRTHSSvgYtXh1qVNSjN3aBiEFt',
          push_key_id: 2408,
          token_kind: 'apns',
          token_id: 'hGsEWGmyyfI=',
          bouncer_public_key: 'bouncer-public-key',
          encrypted_push_registration: 'sealed',
        })
      ).status,
    ).toBe(200);
    await tab(page, 'state');
    await page.locator('#state-refresh').click();
    const row = page.locator('.devices-table tbody tr').filter({ hasText: 'inspector-token' });
    await expect.poll(() => row.count(), SOON).toBe(1);
    expect(await row.textContent()).toMatch(/Cordelia.*android.*inspector-token/);
    const e2ee = page
      .locator('.devices-table tbody tr')
      .filter({ hasText: 'E2EE, token ID hGsEWGmyyfI=, key 2408' })
      .filter({ hasText: 'Cordelia' });
    await expect.poll(() => e2ee.count(), SOON).toBe(1);
    expect(await e2ee.textContent()).toMatch(/Cordelia.*ios/);
  });

  it('freezes the clock and advances it by a minute, an hour and a day', async () => {
    await tab(page, 'clock');
    await page.locator('#clock-freeze').click();
    await expect.poll(async () => (await mock.control.clock.get()).frozen, SOON).toBe(true);
    await expect.poll(() => page.locator('#clock-freeze').getAttribute('aria-pressed'), SOON).toBe('true');
    for (const [button, ms] of [
      ['#clock-minute', 60_000],
      ['#clock-hour', 3_600_000],
      ['#clock-day', 86_400_000],
    ] as const) {
      const before = (await mock.control.clock.get()).now_ms;
      await page.locator(button).click();
      await expect.poll(async () => (await mock.control.clock.get()).now_ms - before, SOON).toBe(ms);
    }
    await page.locator('#clock-freeze').click();
    await expect.poll(async () => (await mock.control.clock.get()).frozen, SOON).toBe(false);
  });
});

describe('reset', () => {
  it('asks for confirmation, does nothing when cancelled and restores the fixture when confirmed', async () => {
    const scheduledCount = async () => (await mock.control.state.export()).scheduled_messages.length;
    const fixtureCount = mock.server.fixture.scheduled_messages.length;
    expect(await scheduledCount()).toBe(fixtureCount + 1);
    await page.locator('#reset-button').click();
    expect(await page.locator('#reset-dialog').isVisible()).toBe(true);
    await shot(page, 'reset-dialog');
    await page.locator('#reset-dialog button[value="cancel"]').click();
    expect(await page.locator('#reset-dialog').isVisible()).toBe(false);
    expect(await scheduledCount()).toBe(fixtureCount + 1);

    await page.locator('#reset-button').click();
    await page.locator('#reset-dialog button[value="confirm"]').click();
    await expect.poll(scheduledCount, SOON).toBe(fixtureCount);
    await expect.poll(() => page.locator('#toasts').textContent(), SOON).toContain('reset to classic.json'); // the suite's default fixture
  });
});
