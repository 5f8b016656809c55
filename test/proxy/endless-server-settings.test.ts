// Proxy mode asks the upstream's /server_settings for its feature level: an upstream that answers
// it without end is read only up to the bound of any upstream answer, then taken as saying
// nothing (the request's own level is used), and the proxied call is answered at once, not after
// the ask's 10 s deadline with all that came until then held in memory.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockServer, type StartedMock } from '../../src/index.js';
import { basicAuth } from '../helpers/server.js';

let upstream: http.Server;
let proxy: StartedMock;
let settingsBytesSent = 0;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    if (req.url === '/api/v1/server_settings') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      res.write('{"zulip_feature_level": 372, "padding": "');
      // Never ends: writes while the client reads, stops when it goes away.
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) settingsBytesSent += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ result: 'success', msg: '', user_id: 10 }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  proxy = await startMockServer({ proxy: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` });
});
afterAll(async () => {
  await proxy?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

it('reads an endless /server_settings answer only up to the bound and answers the call at once', async () => {
  const started = Date.now();
  const res = await fetch(`${proxy.baseUrl}/api/v1/users/me`, {
    headers: { authorization: basicAuth('hamlet@zulip.com', 'key') },
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ result: 'success', msg: '', user_id: 10 });
  expect(Date.now() - started).toBeLessThan(8_000);
  // The mock stopped reading near the bound (what sits in socket buffers aside), not at the end.
  expect(settingsBytesSent).toBeLessThan(64 * 1024 * 1024);
}, 20_000);
