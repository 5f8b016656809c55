// Paused readers of GET /__mock/journal/stream (a background tab, a stalled proxy) must not make
// the server buffer every journal entry for them: past 1 MB unsent, a reader is cut off.
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t.close());

/** A stream reader that reads nothing after the request: its socket stays paused. */
function pausedReader(base: string): Promise<{ closed: Promise<void> }> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(`GET /__mock/journal/stream HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
      socket.once('data', () => {
        socket.pause();
        resolve({ closed: new Promise((done) => socket.once('close', () => done())) });
      });
    });
    socket.setNoDelay(true);
  });
}

it('drops paused readers instead of buffering for them; memory stays bounded', { timeout: 60_000 }, async () => {
  const readers = await Promise.all(Array.from({ length: 10 }, () => pausedReader(t.base)));
  const rssBefore = process.memoryUsage().rss;
  const hamlet = t.as('hamlet');
  // About 8 MB of journal entries per reader (GET /users answers every user): far past the 1 MB a reader may lag.
  for (let i = 0; i < 400; i++) expect((await hamlet.get('/users')).status).toBe(200);
  await Promise.all(readers.map((r) => r.closed));
  expect(process.memoryUsage().rss - rssBefore).toBeLessThan(150 * 1024 * 1024);
});
