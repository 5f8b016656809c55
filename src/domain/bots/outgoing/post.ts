// One HTTP POST to a bot's URL, bounded: a deadline for the whole exchange (the real server's
// requests timeout, 10 s by default), at most `maxAnswerBytes` of the answer read (the rest is
// dropped with the connection), no redirects followed. Its outcome is a value, never a throw:
// an answer (any status), a timeout, a connection error, or a URL the HTTP library refuses.
// Plain HTTP connections are kept alive between calls, as the real server's requests session
// keeps them: a bot called after every message (most are on loopback) is not connected to anew
// each time, which cost the mock more than the call itself.
import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';

/**
 * Idle connections are closed after a second, before the usual servers' own keep-alive timeouts
 * (2 s and more), so that a connection is not reused just as its server closes it.
 */
const KEEP_ALIVE = new http.Agent({ keepAlive: true, maxFreeSockets: 16, timeout: 1000 });

export type PostOutcome =
  | { kind: 'answer'; status: number; body: Buffer; truncated: boolean }
  | { kind: 'timeout' }
  | { kind: 'connection-error'; detail: string }
  /** What `requests` raises before connecting: its exception type and text. */
  | { kind: 'invalid-url'; type: string; text: string };

export interface PostRequest {
  url: string;
  body: string;
  contentType: string;
  userAgent: string;
  timeoutMs: number;
  maxAnswerBytes: number;
}

type Problem = { type: string; text: string };

/** How a URL is called: the request options http.request would make of it, and its Host header. */
interface Target {
  transport: typeof http | typeof https;
  options: http.RequestOptions;
  host: string;
}

/** The URL as requests refuses it (MissingSchema, InvalidSchema, InvalidURL), or how it is called. */
function targetOf(url: string): Problem | Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.includes('://')
      ? { type: 'InvalidURL', text: `Invalid URL '${url}': No host supplied` }
      : { type: 'MissingSchema', text: `Invalid URL '${url}': No scheme supplied. Perhaps you meant https://${url}?` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { type: 'InvalidSchema', text: `No connection adapters were found for '${url}'` };
  const https_ = parsed.protocol === 'https:';
  return {
    transport: https_ ? https : http,
    options: { ...urlToHttpOptions(parsed), method: 'POST', agent: https_ ? false : KEEP_ALIVE },
    host: parsed.host,
  };
}

/**
 * Targets by URL: a bot called after every message is called at the same few URLs, and parsing
 * one (three times, as this once did) cost more than the rest of building the request. Bounded:
 * emptied when full.
 */
const targets = new Map<string, Problem | Target>();
const MAX_TARGETS = 256;

function cachedTarget(url: string): Problem | Target {
  let target = targets.get(url);
  if (!target) {
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(url, (target = targetOf(url)));
  }
  return target;
}

export function post(req: PostRequest): Promise<PostOutcome> {
  const target = cachedTarget(req.url);
  if (!('transport' in target)) return Promise.resolve({ kind: 'invalid-url', ...target });
  const { transport, options, host } = target;
  // The headers as http.request would write them from an object (same names, order and Host
  // header), given as a list: Node then skips checking names and values it knows are ours.
  // A URL with credentials keeps the object, for the Authorization header Node adds from them.
  const headers: http.OutgoingHttpHeaders = {
    'content-type': req.contentType,
    'content-length': Buffer.byteLength(req.body),
    'user-agent': req.userAgent,
    accept: '*/*',
  };
  const list = options.auth
    ? headers
    : [
        'content-type',
        req.contentType,
        'content-length',
        String(headers['content-length']),
        'user-agent',
        req.userAgent,
        'accept',
        '*/*',
        'Host',
        host,
      ];
  return new Promise((resolve) => {
    let done = false;
    const finish = (outcome: PostOutcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = transport.request({ ...options, headers: list as http.OutgoingHttpHeaders }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size >= req.maxAnswerBytes) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= req.maxAnswerBytes) {
          finish({
            kind: 'answer',
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).subarray(0, req.maxAnswerBytes),
            truncated: true,
          });
          request.destroy();
        }
      });
      res.on('end', () =>
        finish({ kind: 'answer', status: res.statusCode ?? 0, body: Buffer.concat(chunks), truncated: false }),
      );
      // A connection cut in the middle of the answer is a connection error, as for requests.
      res.on('error', (err) => finish({ kind: 'connection-error', detail: err.message }));
      res.on('aborted', () => finish({ kind: 'connection-error', detail: 'answer cut short' }));
    });
    const timer = setTimeout(() => {
      finish({ kind: 'timeout' });
      request.destroy();
    }, req.timeoutMs);
    request.on('error', (err) => finish({ kind: 'connection-error', detail: err.message }));
    request.end(req.body);
  });
}
