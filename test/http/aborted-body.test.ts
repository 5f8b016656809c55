// A client that goes away in the middle of a form body: answered (to nobody) as body-parser
// would, never logged as an unexpected error.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, basicAuth, type TestServer } from '../helpers/server.js';

const logged: string[] = [];
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ log: (l) => logged.push(l) });
});
afterAll(async () => {
  await t.close();
});

/** Sends the start of a POST /messages of `type` declaring 200 bytes, then goes away; its journal entry. */
async function cutShort(type: string, start: string) {
  const { port } = new URL(t.base);
  const user = t.user('hamlet');
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    [
      'POST /api/v1/messages HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      `Authorization: ${basicAuth(user.email, user.api_key)}`,
      `Content-Type: ${type}`,
      'Content-Length: 200',
      '',
      start,
    ].join('\r\n'),
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  socket.destroy();
  let entry;
  for (let i = 0; i < 40 && !entry; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    entry = t.server.journal.query({ path: '/messages', status: 400 }).entries[0];
  }
  return entry;
}

describe('a body cut short', () => {
  it('is a 400 in the journal and nothing in the log', async () => {
    const entry = await cutShort('application/x-www-form-urlencoded', 'type=stream&to=Denmark');
    expect(entry).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect((entry!.response as any).msg).toBe('Malformed request body: request aborted');
    expect(logged.filter((l) => l.includes('unexpected'))).toEqual([]);
    // The server still answers.
    expect((await t.as('hamlet').get('/users/me')).status).toBe(200);
  });

  it('is, multipart, the 400 multer answers (a small body is read whole before it is parsed)', async () => {
    t.server.journal.clear();
    const entry = await cutShort(
      'multipart/form-data; boundary=cut',
      '--cut\r\nContent-Disposition: form-data; name="to"\r\n\r\nDen',
    );
    expect(entry).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect((entry!.response as any).msg).toBe('Malformed request body: Request aborted');
    expect(logged.filter((l) => l.includes('unexpected'))).toEqual([]);
    expect((await t.as('hamlet').get('/users/me')).status).toBe(200);
  });
});
