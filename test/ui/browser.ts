// Shared by the inspector's browser tests: Debian's Chromium driven by playwright-core (no browser
// download), the page opened on a running mock, API calls as fixture users, screenshots.
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import type { StartedMock } from '../../src/index.js';
import { findChromium } from '../../scripts/prerequisites.mjs';
import { basicAuth, formEncode } from '../helpers/server.js';

const SHOTS = 'test-results/screenshots';
export const SOON = { timeout: 5000, interval: 50 };
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  // The same search as npm test's first step (which installs Chromium when it can).
  const found = findChromium();
  if ('missing' in found) throw new Error(`${found.missing}: run npm test, or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: found.path, headless: true, args: CHROMIUM_ARGS });
}

/** Opens /__mock/ui (1280x800, light, unless told otherwise) and waits until it has loaded. */
export async function openInspector(
  browser: Browser,
  mock: StartedMock,
  options: BrowserContextOptions = {},
  query = '',
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    ...options,
  });
  const page = await context.newPage();
  const errors: Error[] = [];
  page.on('pageerror', (err) => errors.push(err));
  (page as any).pageErrors = errors;
  await page.goto(`${mock.baseUrl}/__mock/ui${query}`);
  await page.locator('body[data-ready="true"]').waitFor({ timeout: 5000 });
  return page;
}

/** Script errors the page has thrown so far. */
export const pageErrors = (page: Page): Error[] => (page as any).pageErrors;

/** An API call as a fixture user, form-encoded like the real clients. */
export async function api(
  mock: StartedMock,
  who: string,
  method: string,
  path: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const u = mock.user(who);
  const res = await fetch(`${mock.baseUrl}/api/v1${path}`, {
    method,
    headers: {
      authorization: basicAuth(u.email, u.api_key),
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: method === 'GET' ? undefined : formEncode(params),
  });
  return { status: res.status, body: (await res.json()) as any };
}

export const shot = (page: Page, name: string, fullPage = false) =>
  page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
export const entries = (page: Page) => page.locator('#journal-list > li');
export const showTab = (page: Page, name: string) => page.locator(`#tab-${name}`).click();
