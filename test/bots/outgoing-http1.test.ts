// The call to a plain-HTTP bot URL is written and read without Node's HTTP client
// (src/domain/bots/outgoing/http1.ts): against a raw listener of the test's own, the request
// reaches the bot byte for byte as Node's client sent it, and every framing of an answer an
// HTTP/1.1 server may use is read, the connection kept or dropped as the answer says.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { post } from '../../src/domain/bots/outgoing/post.js';

type Script = (socket: net.Socket, request: string) => void;
let server: net.Server | null = null;
let connections = 0;
const requests: string[] = [];

/** A listener answering each complete request (head and declared body) with `script`. */
async function listen(script: Script): Promise<string> {
  connections = 0;
  requests.length = 0;
  server = net.createServer((socket) => {
    connections++;
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('latin1');
      for (;;) {
        const end = text.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
        if (text.length < end + 4 + length) return;
        const request = text.slice(0, end + 4 + length);
        text = text.slice(request.length);
        requests.push(request);
        script(socket, request);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/hook?x=1`;
}
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
  server = null;
});

const call = (url: string, maxAnswerBytes = 1024) =>
  post({
    url,
    body: '{"data":"héllo"}',
    contentType: 'application/json',
    userAgent: 'ZulipOutgoingWebhook/10.2',
    timeoutMs: 2000,
    maxAnswerBytes,
  });
const answer = (body: string) => ({ kind: 'answer', status: 200, body: Buffer.from(body), truncated: false });
const ok = (body: string, extra = '') =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('a call to a plain-HTTP bot URL', () => {
  it("sends the bytes Node's client sent, and keeps the connection for the next call", async () => {
    const url = await listen((socket) => socket.write(ok('{"content":"pong"}')));
    expect(await call(url)).toEqual(answer('{"content":"pong"}'));
    expect(await call(url)).toEqual(answer('{"content":"pong"}'));
    expect(connections).toBe(1);
    // Node's client, with the keep-alive agent post.ts used for every call before.
    const agent = new http.Agent({ keepAlive: true, maxFreeSockets: 16, timeout: 1000 });
    await new Promise((resolve) => {
      const req = http.request(
        new URL(url),
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength('{"data":"héllo"}'),
            'user-agent': 'ZulipOutgoingWebhook/10.2',
            accept: '*/*',
          },
        },
        (res) => res.resume().on('end', resolve),
      );
      req.end('{"data":"héllo"}');
    });
    agent.destroy();
    expect(requests).toHaveLength(3);
    expect(requests[0]).toBe(requests[2]);
    expect(requests[1]).toBe(requests[2]);
  });

  it('reads a chunked answer (extensions, trailers), sent a byte at a time', async () => {
    const url = await listen((socket, request) => {
      const bytes = Buffer.from(
        'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5;x=y\r\n{"con\r\nd\r\ntent":"pong"}\r\n0\r\nx-trailer: 1\r\n\r\n',
      );
      void request;
      let i = 0;
      const next = () => {
        if (i < bytes.length) socket.write(bytes.subarray(i, ++i), () => setImmediate(next));
      };
      next();
    });
    expect(await call(url)).toEqual(answer('{"content":"pong"}'));
    expect(await call(url)).toEqual(answer('{"content":"pong"}'));
    expect(connections).toBe(1);
  });

  it('skips an interim answer, and reads an answer ended by the connection (HTTP/1.0)', async () => {
    let n = 0;
    const url = await listen((socket) => {
      if (n++ === 0) socket.write(`HTTP/1.1 100 Continue\r\n\r\n${ok('{}')}`);
      else socket.end('HTTP/1.0 500 Internal Server Error\r\ncontent-type: text/plain\r\n\r\nboom');
    });
    expect(await call(url)).toEqual(answer('{}'));
    expect(await call(url)).toEqual({ kind: 'answer', status: 500, body: Buffer.from('boom'), truncated: false });
    expect(connections).toBe(1);
  });

  it('connects anew after an answer that closes the connection', async () => {
    const url = await listen((socket) => socket.write(ok('{}', 'connection: close\r\n')));
    expect(await call(url)).toEqual(answer('{}'));
    expect(await call(url)).toEqual(answer('{}'));
    expect(connections).toBe(2);
  });

  it('reads at most maxAnswerBytes, and drops the connection', async () => {
    const url = await listen((socket) => socket.write(ok('x'.repeat(100))));
    expect(await call(url, 10)).toEqual({
      kind: 'answer',
      status: 200,
      body: Buffer.from('x'.repeat(10)),
      truncated: true,
    });
    await call(url, 1000);
    expect(connections).toBe(2);
  });

  it('is a connection error when the answer stops short, never comes, or nothing listens', async () => {
    let n = 0;
    const url = await listen((socket) => {
      if (n++ === 0) socket.end('HTTP/1.1 200 OK\r\ncontent-length: 50\r\n\r\n{"con');
      else socket.destroy();
    });
    expect(await call(url)).toEqual({ kind: 'connection-error', detail: 'answer cut short' });
    expect(await call(url)).toEqual({ kind: 'connection-error', detail: 'socket hang up' });
    const { port } = server!.address() as AddressInfo;
    await new Promise((resolve) => server!.close(resolve));
    server = null;
    expect(await call(`http://127.0.0.1:${port}/`)).toEqual({
      kind: 'connection-error',
      detail: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('is a connection error on an answer it cannot read', async () => {
    const url = await listen((socket) => socket.write('NOT HTTP\r\n\r\n'));
    expect(await call(url)).toMatchObject({ kind: 'connection-error' });
  });
});
