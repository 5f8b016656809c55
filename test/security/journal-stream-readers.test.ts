// Paused readers of GET /__mock/journal/stream (a background tab, a stalled proxy) must not make
// the server buffer every journal entry for them: past 1 MB unsent, a reader is cut off.
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A stream reader that reads nothing after the request: its socket stays paused. */
function pausedReader(base: string): Promise<{ closed: Promise<void>; resume: () => void; received: () => number }> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(`GET /__mock/journal/stream HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
      let received = 0;
      socket.on('data', (chunk) => {
        received += chunk.length;
      });
      socket.once('data', () => {
        socket.pause();
        // A paused socket learns of the server's end only once it reads up to it.
        resolve({
          closed: new Promise((done) => socket.once('close', () => done())),
          resume: () => socket.resume(),
          received: () => received,
        });
      });
      socket.on('error', () => {});
    });
    socket.setNoDelay(true);
  });
}

it('drops paused readers instead of buffering for them; memory stays bounded', { timeout: 30_000 }, async () => {
  const readers = await Promise.all(Array.from({ length: 3 }, () => pausedReader(t.base)));
  const rssBefore = process.memoryUsage().rss;
  const hamlet = t.as('hamlet');
  // Requests that do not decode are journalled with their raw parameters: 500 KB each. 60 MB per
  // reader goes past what the kernel's socket buffers absorb on loopback (up to 32 MB here) and
  // far past the 1 MB a reader may lag behind in the server.
  for (let i = 0; i < 120; i++)
    expect((await hamlet.post('/messages', { junk: 'x'.repeat(500_000) })).status).toBe(400);
  const rssGrowth = process.memoryUsage().rss - rssBefore;
  for (const r of readers) r.resume();
  // The server ended every stream (a live one would stay open), and none got all 60 MB.
  await Promise.all(readers.map((r) => r.closed));
  for (const r of readers) expect(r.received()).toBeLessThan(120 * 500_000);
  expect(rssGrowth).toBeLessThan(300 * 1024 * 1024);
});
