// Headers a stage decides for whatever answer the request gets (the rate-limit headers, set once
// the caller is known, which stay on an error that follows too), kept beside the response until
// the answer is written, then given to its one writeHead. Set with setHeader before writeHead,
// they made Node validate and store every header of the answer twice (writeHead's slow path):
// 2.4 µs of a request, measured on a bare ServerResponse.
import type { ServerResponse } from 'node:http';

const PENDING = new WeakMap<ServerResponse, Record<string, string>>();

/** Adds `headers` to those the answer to `res` will carry (a later value of a name wins). */
export function addAnswerHeaders(res: ServerResponse, headers: Record<string, string>): void {
  const pending = PENDING.get(res);
  if (pending) Object.assign(pending, headers);
  else PENDING.set(res, headers);
}

/** The headers added for `res`, or null: written first, before the answer's own. */
export function answerHeadersOf(res: ServerResponse): Record<string, string> | null {
  return PENDING.get(res) ?? null;
}
