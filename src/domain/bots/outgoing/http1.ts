// One POST over plain HTTP/1.1 on a kept-alive socket, for post.ts. Node's HTTP client cost a
// bot's call about 55 µs of CPU (request and response objects, streams, the agent's bookkeeping)
// where writing the request and reading the answer off the socket cost about 12: a message that
// mentions a bot paid it on every call. The answer is read as any HTTP/1.1 client reads one: 1xx
// answers skipped, a body framed by chunked coding, by Content-Length or by the connection's end;
// a framing it cannot read is a connection error, as it is for Node's client (and requests).
import net from 'node:net';
import type { PostOutcome, PostRequest } from './post-request.js';

/** Idle connections kept per host and port, each closed after a second unused (as post.ts's agent did). */
const MAX_IDLE_PER_HOST = 16;
const IDLE_MS = 1000;
/** An answer's status line and headers past this are refused (Node's default limit). */
const MAX_HEAD_BYTES = 16 * 1024;

const idle = new Map<string, net.Socket[]>();
/** What an idle socket listens with (its own listeners only: net.Socket keeps listeners of its own). */
const idleListeners = new WeakMap<net.Socket, () => void>();
const IDLE_EVENTS = ['data', 'error', 'end', 'close', 'timeout'] as const;

function takeIdle(key: string): net.Socket | null {
  const list = idle.get(key);
  while (list?.length) {
    const socket = list.pop()!;
    const drop = idleListeners.get(socket);
    if (drop) for (const event of IDLE_EVENTS) socket.off(event, drop);
    idleListeners.delete(socket);
    socket.setTimeout(0);
    if (!socket.destroyed && socket.writable) return socket.ref();
    socket.destroy();
  }
  return null;
}

function keepIdle(key: string, socket: net.Socket): void {
  let list = idle.get(key);
  if (!list) idle.set(key, (list = []));
  if (list.length >= MAX_IDLE_PER_HOST) return void socket.destroy();
  // An idle connection that speaks, ends, fails or stays unused a second is no longer one to send on.
  const drop = () => {
    const i = list.indexOf(socket);
    if (i >= 0) list.splice(i, 1);
    for (const event of IDLE_EVENTS) socket.off(event, drop);
    socket.destroy();
  };
  for (const event of IDLE_EVENTS) socket.on(event, drop);
  idleListeners.set(socket, drop);
  socket.setTimeout(IDLE_MS);
  // As Node's agent: an idle connection does not keep the process running.
  socket.unref();
  list.push(socket);
}

interface Head {
  status: number;
  /** The answer lets the connection be used again. */
  keepAlive: boolean;
  /** How the body is framed: a length, chunked coding, or the connection's end. */
  framing: { kind: 'length'; length: number } | { kind: 'chunked' } | { kind: 'close' };
}

/** The status line and headers (without the blank line), or a description of what is wrong with them. */
function parseHead(text: string): Head | string {
  const lines = text.split('\r\n');
  const status = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(lines[0]);
  if (!status) return 'Parse Error: Invalid status line';
  let length: number | null = null;
  let chunked = false;
  let codings = false;
  let close = status[1] === '0';
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(':');
    if (colon <= 0) return 'Parse Error: Invalid header';
    const name = lines[i].slice(0, colon).trim().toLowerCase();
    const value = lines[i].slice(colon + 1).trim();
    if (name === 'content-length') {
      if (!/^\d{1,15}$/.test(value) || (length !== null && length !== Number(value)))
        return 'Parse Error: Invalid Content-Length';
      length = Number(value);
    } else if (name === 'transfer-encoding') {
      codings = true;
      chunked = value.toLowerCase().split(',').pop()!.trim() === 'chunked';
    } else if (name === 'connection') {
      const tokens = value
        .toLowerCase()
        .split(',')
        .map((t) => t.trim());
      if (tokens.includes('close')) close = true;
      else if (tokens.includes('keep-alive') && status[1] === '0') close = false;
    }
  }
  const code = Number(status[2]);
  const framing: Head['framing'] =
    code === 204 || code === 304 || (code >= 100 && code < 200)
      ? { kind: 'length', length: 0 }
      : codings
        ? chunked
          ? { kind: 'chunked' }
          : { kind: 'close' }
        : length !== null
          ? { kind: 'length', length }
          : { kind: 'close' };
  return { status: code, keepAlive: !close && framing.kind !== 'close', framing };
}

/**
 * POSTs `req` to `url` (http:, without credentials in it). `host`: the Host header (the URL's
 * host, its port only when not 80), as Node's client sends it.
 */
export function postHttp1(url: URL, req: PostRequest): Promise<PostOutcome> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 80);
  const key = `${hostname}:${port}`;
  const head =
    `POST ${url.pathname}${url.search} HTTP/1.1\r\n` +
    `content-type: ${req.contentType}\r\ncontent-length: ${Buffer.byteLength(req.body)}\r\n` +
    `user-agent: ${req.userAgent}\r\naccept: */*\r\nHost: ${url.host}\r\nConnection: keep-alive\r\n\r\n`;
  return new Promise((resolve) => {
    const reused = takeIdle(key);
    const socket = reused ?? net.connect({ host: hostname, port });
    // As Node's agent sets up its connections: no Nagle delay, TCP keep-alive probes.
    if (!reused) socket.setNoDelay(true).setKeepAlive(true, IDLE_MS);
    let done = false;
    const finish = (outcome: PostOutcome, keep = false) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('end', ended);
      socket.off('close', ended);
      if (keep) keepIdle(key, socket);
      else socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), req.timeoutMs);

    let pending: Buffer = Buffer.alloc(0);
    let answer: Head | null = null;
    const body: Buffer[] = [];
    let size = 0;
    /** Bytes of the body still to come: of the length, or of the current chunk; -1 before a chunk's size line. */
    let left = -1;
    /** Within chunked coding, after the last chunk: reading trailers. */
    let trailers = false;

    const answered = (truncated: boolean) => {
      const bytes = Buffer.concat(body, size);
      finish(
        {
          kind: 'answer',
          status: answer!.status,
          body: truncated ? bytes.subarray(0, req.maxAnswerBytes) : bytes,
          truncated,
        },
        !truncated && answer!.keepAlive && pending.length === 0,
      );
    };
    /** Takes body bytes; true once the answer is as large as may be read (then it is over). */
    const take = (bytes: Buffer): boolean => {
      if (!bytes.length) return false;
      body.push(bytes);
      size += bytes.length;
      if (size < req.maxAnswerBytes) return false;
      answered(true);
      return true;
    };
    const fail = (detail: string) => finish({ kind: 'connection-error', detail });

    /** Reads what `pending` holds as far as it goes. */
    const advance = (): void => {
      for (;;) {
        if (!answer) {
          const end = pending.indexOf('\r\n\r\n');
          if (end < 0) {
            if (pending.length > MAX_HEAD_BYTES) fail('Parse Error: Header overflow');
            return;
          }
          if (end > MAX_HEAD_BYTES) return fail('Parse Error: Header overflow');
          const parsed = parseHead(pending.toString('latin1', 0, end));
          if (typeof parsed === 'string') return fail(parsed);
          pending = pending.subarray(end + 4);
          // An interim answer (100 Continue, 103 Early Hints) comes before the real one.
          if (parsed.status >= 100 && parsed.status < 200) {
            if (parsed.status === 101) return fail('Parse Error: Unexpected upgrade');
            continue;
          }
          answer = parsed;
          if (answer.framing.kind === 'length') left = answer.framing.length;
          continue;
        }
        const { framing } = answer;
        if (framing.kind === 'close') {
          const bytes = pending;
          pending = Buffer.alloc(0);
          take(bytes);
          return;
        }
        if (framing.kind === 'length') {
          const bytes = pending.subarray(0, left);
          pending = pending.subarray(bytes.length);
          left -= bytes.length;
          if (take(bytes)) return;
          if (left === 0) return answered(false);
          return;
        }
        // Chunked coding: a size line, the chunk, a line break; size 0, then trailers to a blank line.
        if (trailers) {
          const end = pending.indexOf('\r\n');
          if (end < 0) return;
          pending = pending.subarray(end + 2);
          if (end === 0) return answered(false);
          continue;
        }
        if (left === -1) {
          const end = pending.indexOf('\r\n');
          if (end < 0) {
            if (pending.length > MAX_HEAD_BYTES) fail('Parse Error: Invalid chunk size');
            return;
          }
          const sizeText = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/.exec(pending.toString('latin1', 0, end));
          if (!sizeText) return fail('Parse Error: Invalid character in chunk size');
          pending = pending.subarray(end + 2);
          left = parseInt(sizeText[1], 16);
          if (left === 0) {
            trailers = true;
            left = -1;
          }
          continue;
        }
        if (left > 0) {
          const bytes = pending.subarray(0, left);
          pending = pending.subarray(bytes.length);
          left -= bytes.length;
          if (take(bytes)) return;
          if (left > 0) return;
        }
        // The line break after a chunk's data.
        if (pending.length < 2) return;
        if (pending[0] !== 0x0d || pending[1] !== 0x0a) return fail('Parse Error: Invalid chunk');
        pending = pending.subarray(2);
        left = -1;
      }
    };

    function onData(chunk: Buffer): void {
      if (done) return;
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      advance();
    }
    function onError(err: Error): void {
      fail(err.message);
    }
    function ended(): void {
      if (done) return;
      if (answer?.framing.kind === 'close') answered(false);
      // As Node's client: no answer at all is a hang-up, an answer that stops short a cut.
      else fail(answer ? 'answer cut short' : 'socket hang up');
    }
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('end', ended);
    socket.on('close', ended);
    socket.write(head + req.body);
  });
}
