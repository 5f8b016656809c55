// Proxy mode against an upstream that answers what real servers and hostile ones do: HTML error
// pages, empty redirects, images, cookies, huge or cut-short answers. The journal, verify and the
// live stream must keep working, nothing the upstream sends may run on the mock's origin, and
// paths with dot segments never reach the upstream.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockServer, type StartedMock } from '../../src/index.js';
import { MAX_UPSTREAM_BYTES } from '../../src/pipeline/proxy.js';
import { basicAuth } from '../helpers/server.js';
import { launchBrowser } from '../ui/browser.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let answer: Handler;
const seen: string[] = [];
let upstream: http.Server;
let proxy: StartedMock;
let proxyOnly: StartedMock;
const auth = basicAuth('hamlet@zulip.com', 'whatever-the-upstream-judges');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    if (req.url === '/api/v1/server_settings') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: 'success', msg: '', zulip_feature_level: 372 }));
      return;
    }
    seen.push(req.url!);
    answer(req, res);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const site = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  proxy = await startMockServer({ proxy: site });
  proxyOnly = await startMockServer({ proxy: site, proxyOnly: ['get-own-user'] });
});
afterAll(async () => {
  await proxy?.close();
  await proxyOnly?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});
beforeEach(async () => {
  seen.length = 0;
  await proxy.control.journal.clear();
});

const get = (base: string, path: string) =>
  fetch(`${base}/api/v1${path}`, { headers: { authorization: auth }, redirect: 'manual' });
const journal = async () => {
  const res = await fetch(`${proxy.baseUrl}/__mock/journal`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { entries: any[] }).entries;
};
const verify = async () => {
  const res = await fetch(`${proxy.baseUrl}/__mock/journal/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'get-own-user' }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { count: number };
};

describe('--proxy against answers that are not JSON', () => {
  it('relays an HTML error page inertly (nosniff, sandboxing CSP), and the journal and verify keep answering', async () => {
    answer = (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><script>alert(1)</script>Not here</html>');
    };
    const res = await get(proxy.baseUrl, '/users/me');
    expect(res.status).toBe(404);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(await res.text()).toBe('<html><script>alert(1)</script>Not here</html>');
    const [entry] = await journal();
    expect(entry.response).toEqual({
      content_type: 'text/html',
      text: '<html><script>alert(1)</script>Not here</html>',
    });
    expect((await verify()).count).toBe(1);
  });

  it('journals an empty redirect and binary bytes (base64), and streams them', async () => {
    answer = (_req, res) => {
      res.writeHead(302, { location: '/login/' });
      res.end();
    };
    expect((await get(proxy.baseUrl, '/users/me')).status).toBe(302);
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    };
    const png = await get(proxy.baseUrl, '/users/me');
    expect(Buffer.from(await png.arrayBuffer())).toEqual(PNG);
    const entries = (await journal()).sort((a, b) => a.id - b.id);
    expect(entries.map((e) => e.response)).toEqual([
      { content_type: 'none', text: '' },
      { content_type: 'image/png', base64: PNG.toString('base64') },
    ]);
    expect((await verify()).count).toBe(2);
    // The live stream replays both and stays open.
    const controller = new AbortController();
    const stream = await fetch(`${proxy.baseUrl}/__mock/journal/stream?since_id=0`, { signal: controller.signal });
    const reader = stream.body!.getReader();
    let text = '';
    while ((text.match(/event: entry/g) ?? []).length < 2)
      text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toContain('"base64"');
  });

  it('never relays upstream cookies', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'sessionid=stolen; Path=/' });
      res.end('{"result":"success","msg":""}');
    };
    const res = await get(proxy.baseUrl, '/users/me');
    expect(res.headers.get('set-cookie')).toBeNull();
    // A JSON answer is not made inert, but is never sniffed either way.
    expect(res.headers.get('content-security-policy')).toBeNull();
  });

  it("keeps an upstream page's script from reading the mock's state in Chromium", async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<html><body><script>fetch("/__mock/state").then(r => r.text()).then(t => { document.title = "read " + t.length; }, e => { document.title = "blocked"; });</script></body></html>',
      );
    };
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.setExtraHTTPHeaders({ authorization: auth });
      await page.goto(`${proxy.baseUrl}/api/v1/users/me`);
      await page.waitForTimeout(500);
      expect(await page.title()).not.toMatch(/^read/);
    } finally {
      await browser.close();
    }
  });
});

describe('--proxy against oversized and malformed answers', () => {
  it(`answers 502 for an answer over ${MAX_UPSTREAM_BYTES} bytes, declared or streamed`, async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_UPSTREAM_BYTES + 1) });
      res.write('{"a":"');
    };
    const declared = await get(proxy.baseUrl, '/users/me');
    expect(declared.status).toBe(502);
    expect((await declared.json()).code).toBe('UPSTREAM_MALFORMED');
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      const more = () => {
        while (sent < 20 && res.write(chunk)) sent++;
        if (sent < 20)
          res.once('drain', () => {
            sent++;
            more();
          });
        else res.end();
      };
      more();
    };
    const streamed = await get(proxy.baseUrl, '/users/me');
    expect(streamed.status).toBe(502);
    expect(await streamed.json()).toMatchObject({ result: 'error', code: 'UPSTREAM_MALFORMED' });
  });

  it('answers 502 (not 500) for a body shorter than its Content-Length', async () => {
    answer = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"result":');
      setTimeout(() => req.socket.destroy(), 20);
    };
    const res = await get(proxy.baseUrl, '/users/me');
    expect(res.status).toBe(502);
    expect((await res.json()).msg).toMatch(/cut short or badly framed/);
  });
});

describe('--proxy and dot segments', () => {
  it.each(['/api/v1/users/%2e%2e/%2e%2e/admin', '/api/v1/users/%2E%2E/me', '/api/v1/messages/..%2f..%2fadmin'])(
    'refuses %s without forwarding it, --proxy-only or not',
    async (path) => {
      for (const mock of [proxy, proxyOnly]) {
        const res = await fetch(`${mock.baseUrl}${path}`, { headers: { authorization: auth } });
        expect(res.status === 400 || res.status === 404).toBe(true);
      }
      expect(seen).toEqual([]);
    },
  );
});
