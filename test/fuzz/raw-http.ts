// A raw HTTP client for the fuzzer. fetch() normalises what the fuzzer needs to send as is
// (`%2e%2e` and `/./` segments, invalid percent-encoding, header values, methods fetch forbids),
// so requests go through node:http with the path and body bytes untouched, and each one has a
// deadline: a request the server never answers is a hang, reported as such.
import http from 'node:http';
import net from 'node:net';

export interface RawRequest {
  method: string;
  /** The request target exactly as sent (path and query, already encoded). */
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
}

class HangError extends Error {}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * Sends one request to the server at `base`; rejects with HangError after `timeoutMs`. A request
 * that went out on a kept-alive connection the server had just closed (ECONNRESET on a reused
 * socket, the race Node's http documentation describes) is sent once more on a new one.
 */
export async function send(base: string, req: RawRequest, timeoutMs = 5000): Promise<RawResponse> {
  try {
    return await sendOnce(base, req, timeoutMs);
  } catch (err) {
    if (!(err instanceof ReusedSocketReset)) throw err;
    return sendOnce(base, req, timeoutMs);
  }
}

class ReusedSocketReset extends Error {}

function sendOnce(base: string, req: RawRequest, timeoutMs: number): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(req.body.length);
    const r = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          let json: any;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      },
    );
    const timer = setTimeout(() => {
      r.destroy();
      reject(new HangError(`no answer within ${timeoutMs} ms: ${req.method} ${req.path.slice(0, 200)}`));
    }, timeoutMs);
    r.on('error', (err) => {
      clearTimeout(timer);
      const reset = r.reusedSocket && (err as NodeJS.ErrnoException).code === 'ECONNRESET';
      reject(reset ? new ReusedSocketReset(err.message) : err);
    });
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

/** Writes raw bytes on a connection of its own and returns everything the server sent back. */
export function rawExchange(base: string, bytes: string, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new HangError(`no answer to ${JSON.stringify(bytes.slice(0, 80))}`));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.on('error', () => {
      /* the server may reset the connection after answering */
    });
    socket.end(bytes);
  });
}
