// The live journal: GET /__mock/journal/stream over plain HTTP (server-sent events, sandbox filter,
// replay after Last-Event-ID, the control token, a server that closes with streams open), and in
// the page: the polling fallback, the token prompt and the sandbox selector.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startMockServer, type StartedMock } from '../../src/index.js';
import { api, entries, launchBrowser, openInspector, pageErrors, shot, SOON } from './browser.js';

interface SseEvent {
  event: string;
  id: string | null;
  data: any;
}

/** Reads a server-sent event stream into `events` until closed. */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const events: SseEvent[] = [];
  let ended = false;
  const done = (async () => {
    if (!res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += decoder.decode(value, { stream: true });
        for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
          const fields = Object.fromEntries(
            buffer
              .slice(0, at)
              .split('\n')
              .filter((l) => !l.startsWith(':') && l.includes(':'))
              .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
          );
          buffer = buffer.slice(at + 2);
          if (fields.data !== undefined)
            events.push({ event: fields.event ?? 'message', id: fields.id ?? null, data: JSON.parse(fields.data) });
        }
      }
    } catch {
      /* aborted */
    }
  })().finally(() => {
    ended = true;
  });
  return { res, events, close: () => abort.abort(), done, ended: () => ended };
}

let mock: StartedMock;
let browser: Browser;

beforeAll(async () => {
  mock = await startMockServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

describe('GET /__mock/journal/stream', () => {
  it('sends each new request of the chosen sandbox as an entry event, once the stream is ready', async () => {
    const stream = await openStream(`${mock.baseUrl}/__mock/journal/stream?sandbox=default`);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await expect.poll(() => stream.events.map((e) => e.event), SOON).toEqual(['ready']);
    await api(mock, 'hamlet', 'GET', '/users/me');
    await api(mock, 'othello', 'GET', '/users/me', {}, { 'X-Mock-Sandbox': 'elsewhere' });
    await api(mock, 'iago', 'POST', '/messages', { type: 'stream', to: 'Denmark', topic: 'stream', content: 'live' });
    await expect.poll(() => stream.events.length, SOON).toBe(3);
    const [first, second] = stream.events.slice(1);
    expect(first).toMatchObject({
      event: 'entry',
      data: { sandbox: 'default', operation: 'get-own-user', user: 'hamlet@zulip.com', status: 200 },
    });
    expect(second).toMatchObject({
      event: 'entry',
      data: { operation: 'send-message', user: 'iago@zulip.com', params: { to: 'Denmark', content: 'live' } },
    });
    expect(second.id).toBe(String(second.data.id));
    const { entries: journal } = await mock.control.journal.list({ sandbox: 'default', limit: 2 });
    expect([second.data, first.data]).toEqual(journal);
    stream.close();
  });

  it('first replays what a reconnecting client missed, after its Last-Event-ID, oldest first', async () => {
    const lastSeen = (await mock.control.journal.list({ limit: 1 })).entries[0].id;
    await api(mock, 'hamlet', 'GET', '/users/me');
    await api(mock, 'cordelia', 'GET', '/users/me');
    const stream = await openStream(`${mock.baseUrl}/__mock/journal/stream?sandbox=default`, {
      'Last-Event-ID': String(lastSeen),
    });
    await expect.poll(() => stream.events.map((e) => e.event), SOON).toEqual(['entry', 'entry', 'ready']);
    expect(stream.events.slice(0, 2).map((e) => e.data.user)).toEqual(['hamlet@zulip.com', 'cordelia@zulip.com']);
    stream.close();
  });

  it('needs the control token when the server has one, and does not keep a closing server open', async () => {
    const guarded = await startMockServer({ controlToken: 's3cret' });
    const refused = await fetch(`${guarded.baseUrl}/__mock/journal/stream`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
    const stream = await openStream(`${guarded.baseUrl}/__mock/journal/stream`, { 'X-Mock-Token': 's3cret' });
    await expect.poll(() => stream.events.length, SOON).toBe(1);
    const started = Date.now();
    await guarded.close();
    expect(Date.now() - started).toBeLessThan(3000);
    await stream.done;
    expect(stream.ended()).toBe(true);
  });
});

describe('the page without the stream', () => {
  it('falls back to polling the journal and still shows new requests without reloading', async () => {
    const page = await openInspector(browser, mock, {}, '?transport=poll');
    await expect.poll(() => page.locator('#live-status').textContent(), SOON).toBe('Live (polling)');
    await api(mock, 'prospero', 'GET', '/users/me');
    await entries(page).filter({ hasText: 'prospero@zulip.com' }).first().waitFor(SOON);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });

  it('asks for the control token when the server wants one, then works (polling)', async () => {
    const guarded = await startMockServer({ controlToken: 's3cret' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${guarded.baseUrl}/__mock/ui/`);
    await page.locator('#token-form').waitFor(SOON);
    expect(await page.locator('#token-reason').textContent()).toContain('control token');
    await expect.poll(() => page.locator('#live-status').textContent(), SOON).toBe('Control token needed');
    await shot(page, 'token-prompt');
    await page.locator('#token-input').fill('s3cret');
    await page.locator('#token-form button[type="submit"]').click();
    await expect.poll(() => page.locator('#server-info').textContent(), SOON).toContain('feature level');
    await expect.poll(() => page.locator('#live-status').textContent(), SOON).toBe('Live (polling)');
    await api(guarded, 'hamlet', 'GET', '/users/me');
    await entries(page).filter({ hasText: 'hamlet@zulip.com' }).first().waitFor(SOON);
    await context.close();
    await guarded.close();
  });
});

describe('the sandbox selector', () => {
  it('shows the chosen sandbox: its journal, and reset acts on it alone', async () => {
    const w1 = mock.sandbox('w1');
    await api(
      mock,
      'hamlet',
      'POST',
      '/messages',
      { type: 'stream', to: 'Denmark', topic: 'sandbox', content: 'in w1' },
      { 'X-Mock-Sandbox': 'w1' },
    );
    await api(mock, 'hamlet', 'POST', '/messages', {
      type: 'stream',
      to: 'Denmark',
      topic: 'sandbox',
      content: 'in default',
    });
    const page = await openInspector(browser, mock);
    await page.locator('#sandbox-select').focus();
    await expect.poll(() => page.locator('#sandbox-select option').allTextContents(), SOON).toContain('w1');
    await page.locator('#sandbox-select').selectOption('w1');
    await expect.poll(() => entries(page).allTextContents(), SOON).toEqual([expect.stringContaining('send-message')]);
    expect(new URL(page.url()).searchParams.get('sandbox')).toBe('w1');
    await entries(page).first().locator('button').click();
    expect(await page.locator('#journal-detail .params-table').textContent()).toContain('"in w1"');

    const messages = async (c: typeof w1.control | typeof mock.control) => (await c.state.export()).messages.length;
    const [w1Before, defaultBefore] = [await messages(w1.control), await messages(mock.control)];
    await page.locator('#reset-button').click();
    expect(await page.locator('#reset-dialog h2').textContent()).toBe('Reset sandbox “w1”?');
    await page.locator('#reset-dialog button[value="confirm"]').click();
    await expect.poll(() => messages(w1.control), SOON).toBe(w1Before - 1);
    expect(await messages(mock.control)).toBe(defaultBefore);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });
});
