// The inspector in both color schemes and on a narrow window, and by keyboard alone: every text
// on screen keeps a readable contrast, nothing overflows sideways at 400 px, and every control is
// reached with Tab (and the tabs with the arrow keys) and shows where the focus is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startMockServer, type StartedMock } from '../../src/index.js';
import { takeViolations } from '../setup/contract-guard.js';
import { api, entries, launchBrowser, openInspector, pageErrors, shot, showTab, SOON } from './browser.js';

let mock: StartedMock;
let browser: Browser;

beforeAll(async () => {
  mock = await startMockServer();
  browser = await launchBrowser();
  // A journal with every kind of entry: success, client error, a scenario's answer, a response
  // that breaks the description.
  await api(mock, 'hamlet', 'POST', '/messages', { type: 'stream', to: 'Denmark', topic: 'layout', content: 'Hello' });
  await api(mock, 'othello', 'POST', '/messages', { type: 'stream', to: 'Denmark', topic: 'layout' });
  await mock.control.scenarios.activate('no-active-push-device');
  await api(mock, 'hamlet', 'POST', '/mobile_push/e2ee/test_notification');
  await mock.control.scenarios.activate({
    name: 'broken-send',
    rules: [{ operation: 'send-message', once: true, respond: { success: { id: 'x' } } }],
  });
  await api(mock, 'iago', 'POST', '/messages', {
    type: 'stream',
    to: 'Denmark',
    topic: 'layout',
    content: 'Wrong answer',
  });
  takeViolations();
});

afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

/**
 * Visible texts whose contrast with their background is below WCAG AA (4.5:1, or 3:1 for large
 * text). Disabled controls are exempt, as in WCAG.
 */
function lowContrastTexts(page: Page) {
  return page.evaluate(() => {
    const parse = (c: string) => {
      const n = (c.match(/[\d.]+/g) ?? []).map(Number);
      return { r: n[0], g: n[1], b: n[2], a: n.length > 3 ? n[3] : 1 };
    };
    const lum = (c: { r: number; g: number; b: number }) => {
      const f = (v: number) => {
        v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
    };
    const background = (el: Element | null) => {
      for (let e = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c.a > 0.5) return c;
      }
      return parse(getComputedStyle(document.body).backgroundColor);
    };
    const out: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim() !== '');
      if (!own || !el.getClientRects().length || el.closest('[hidden], .visually-hidden, :disabled, option, datalist'))
        continue;
      const style = getComputedStyle(el);
      const [a, b] = [lum(parse(style.color)), lum(background(el))];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        out.push(
          `${el.tagName.toLowerCase()}.${el.className} "${el.textContent!.trim().slice(0, 30)}" ${ratio.toFixed(2)}`,
        );
    }
    return out;
  });
}

async function everyPanelReadable(page: Page, scheme: string) {
  await entries(page).first().locator('button').click();
  expect(await lowContrastTexts(page)).toEqual([]);
  await shot(page, `${scheme}-journal`);
  for (const name of ['state', 'scenarios', 'clock']) {
    await showTab(page, name);
    if (name === 'state') await page.locator('.users-table').waitFor(SOON);
    expect(await lowContrastTexts(page), name).toEqual([]);
    await shot(page, `${scheme}-${name}`);
  }
  await showTab(page, 'journal');
  await page.locator('#reset-button').click();
  expect(await lowContrastTexts(page)).toEqual([]);
  await page.keyboard.press('Escape');
  expect(pageErrors(page)).toEqual([]);
}

describe('color schemes', () => {
  it('is readable in the dark scheme', async () => {
    const page = await openInspector(browser, mock, { colorScheme: 'dark' });
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(15, 18, 23)');
    await everyPanelReadable(page, 'dark');
    await page.context().close();
  });

  it('is readable in the light scheme', async () => {
    const page = await openInspector(browser, mock, { colorScheme: 'light' });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(246, 247, 249)');
    await everyPanelReadable(page, 'light');
    await page.context().close();
  });
});

describe('a narrow window (400 px)', () => {
  it('fits every panel without sideways scrolling, the detail under the list', async () => {
    const page = await openInspector(browser, mock, { viewport: { width: 400, height: 800 } });
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBe(0);
    for (const t of ['journal', 'state', 'scenarios', 'clock', 'coverage', 'outbox']) {
      const box = (await page.locator(`#tab-${t}`).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(400);
    }
    await shot(page, 'narrow');
    await entries(page).filter({ hasText: 'problem' }).locator('button').click();
    const [list, detail] = [
      await page.locator('#journal-list').boundingBox(),
      await page.locator('#journal-detail').boundingBox(),
    ];
    expect(detail!.y).toBeGreaterThan(list!.y + list!.height - 1);
    expect(await overflow()).toBe(0);
    await shot(page, 'narrow-detail');
    for (const name of ['state', 'scenarios', 'clock', 'outbox']) {
      await showTab(page, name);
      if (name === 'state') await page.locator('.users-table').waitFor(SOON);
      expect(await overflow(), name).toBe(0);
      await shot(page, `narrow-${name}`);
    }
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });
});

describe('the keyboard', () => {
  it('reaches every control in order, shows the focus, and drives tabs, entries, switches, the clock and the reset dialog', async () => {
    const page = await openInspector(browser, mock);
    const focused = () =>
      page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim().slice(0, 20));
    const order: Array<string | undefined> = [];
    for (let i = 0; i < 9; i++) {
      await page.keyboard.press('Tab');
      order.push(await focused());
    }
    expect(order.slice(0, 8)).toEqual([
      'Skip to the panels',
      'sandbox-select',
      'reset-button',
      'tab-journal',
      'filter-operation',
      'filter-user',
      'filter-status',
      'journal-clear',
    ]);
    expect(await page.evaluate(() => document.activeElement?.closest('li')?.dataset.id)).toBeTruthy();
    const ring = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement!);
      return [s.outlineStyle, parseFloat(s.outlineWidth)];
    });
    expect(ring[0]).not.toBe('none');
    expect(ring[1]).toBeGreaterThanOrEqual(2);

    await page.keyboard.press('Enter');
    expect(await focused()).toBe('detail-title');
    expect(await page.locator('#journal-detail h2').textContent()).toMatch(/^POST \/messages$/);

    await page.locator('#tab-journal').focus();
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('tab-state');
    expect(await page.locator('#panel-state').isVisible()).toBe(true);
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('tab-scenarios');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('scenario-admin-action-required');
    await page.keyboard.press('Space');
    await expect
      .poll(async () => (await mock.control.scenarios.list()).active.map((a) => a.name).sort(), SOON)
      .toEqual(['admin-action-required', 'broken-send', 'no-active-push-device']);
    await mock.control.scenarios.deactivate();

    await page.locator('#tab-scenarios').focus();
    await page.keyboard.press('End');
    expect(await focused()).toBe('tab-outbox');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('tab-coverage');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('tab-clock');
    await mock.control.clock.freeze();
    const before = (await mock.control.clock.get()).now_ms;
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('clock-minute');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await mock.control.clock.get()).now_ms - before, SOON).toBe(60_000);
    await mock.control.clock.real();

    await page.locator('#reset-button').focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#reset-dialog').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    expect(await page.locator('#reset-dialog').isVisible()).toBe(false);
    expect(await focused()).toBe('reset-button');
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });
});
