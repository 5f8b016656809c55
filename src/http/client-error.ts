// Requests node's HTTP layer refuses before Express sees them (a request line or headers past
// the 16 KB limit, a malformed request line or header, a bad chunk, an Expect header other than
// 100-continue) still get the JSON envelope instead of node's bare status line: clients and the
// fuzzer parse every answer the same way.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../errors.js';
import { errorBody } from './envelope.js';

function statusFor(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request header fields too large'];
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return [413, 'Request chunk extensions too large'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request timeout'];
  return [400, 'Malformed HTTP request'];
}

/** The server's 'clientError' listener: answers like node would, with an envelope as the body. */
export function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  // As node itself does: never write into a response already on its way.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, msg] = statusFor(err.code);
  const text = JSON.stringify(errorBody(new ApiError('BAD_REQUEST', msg, status)));
  // A HEAD request gets the headers only (the packet that failed usually starts with its method).
  const head = err.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${head ? '' : text}`,
  );
}

/** The server's 'checkExpectation' listener (an Expect other than 100-continue): 417, as node does. */
export function answerExpectationFailed(req: IncomingMessage, res: ServerResponse): void {
  const text = JSON.stringify(
    errorBody(new ApiError('BAD_REQUEST', `Unsupported Expect header: ${req.headers.expect}`, 417)),
  );
  res.writeHead(417, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    Connection: 'close',
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}
