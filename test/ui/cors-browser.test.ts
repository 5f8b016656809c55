// --cors in a real browser: a page served from another port calls the API with credentials
// (a preflighted request) and succeeds; the control API and a page from an origin that is not
// listed are refused by the browser.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type StartedMock } from '../../src/index.js';
import { launchBrowser } from './browser.js';

/** A plain page server on a free port: its origin is not the mock's. */
async function pageServer(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>client</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Runs fetch in the page: the status and body, or the browser's refusal. */
const fetchFrom = (page: Page, url: string, init: RequestInit) =>
  page.evaluate(
    async ([u, i]) => {
      try {
        const res = await fetch(u, i);
        return { status: res.status, body: await res.json() };
      } catch (err) {
        return { refused: String(err) };
      }
    },
    [url, init] as const,
  );

const AUTH = {
  authorization: `Basic ${Buffer.from('hamlet@zulip.com:waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f').toString('base64')}`,
};

describe('--cors in Chromium', () => {
  let mock: StartedMock;
  let browser: Browser;
  let allowed: Awaited<ReturnType<typeof pageServer>>;
  let other: Awaited<ReturnType<typeof pageServer>>;

  beforeAll(async () => {
    allowed = await pageServer();
    other = await pageServer();
    mock = await startMockServer({ cors: [allowed.origin] });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await mock?.close();
    await allowed?.close();
    await other?.close();
  });

  const open = async (origin: string) => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    return page;
  };

  it('lets the listed origin send a message and read it back', async () => {
    const page = await open(allowed.origin);
    const sent = await fetchFrom(page, `${mock.baseUrl}/api/v1/messages`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'type=stream&to=Denmark&topic=cors&content=from%20a%20browser',
    });
    expect(sent).toMatchObject({ status: 200, body: { result: 'success', msg: '' } });
    const read = await fetchFrom(page, `${mock.baseUrl}/api/v1/messages/${(sent as any).body.id}`, { headers: AUTH });
    expect(read).toMatchObject({
      status: 200,
      body: { message: { content: '<p>from a browser</p>', subject: 'cors' } },
    });
    const { count } = await mock.control.journal.verify({
      operation: 'send-message',
      user: 'hamlet@zulip.com',
      status: 200,
    });
    expect(count).toBe(1);
    await page.close();
  });

  it('refuses the control API to the same page', async () => {
    const page = await open(allowed.origin);
    expect(await fetchFrom(page, `${mock.baseUrl}/__mock/info`, {})).toEqual({ refused: 'TypeError: Failed to fetch' });
    expect(
      await fetchFrom(page, `${mock.baseUrl}/__mock/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
    ).toEqual({ refused: 'TypeError: Failed to fetch' });
    await page.close();
  });

  it('refuses the API to an origin that is not listed', async () => {
    const page = await open(other.origin);
    expect(await fetchFrom(page, `${mock.baseUrl}/api/v1/users/me`, { headers: AUTH })).toEqual({
      refused: 'TypeError: Failed to fetch',
    });
    await page.close();
  });
});
