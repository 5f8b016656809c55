// CSRF defence of the control API. A page on another site can make the browser send "simple"
// requests (a form POST, text/plain bodies, query strings) without asking anyone; the control API
// therefore refuses requests that a browser marks as coming from another site, accepts state
// changes only as JSON (which a page of another origin cannot send without a CORS preflight,
// and the control API answers no preflight), and never reads their parameters from the URL.
import type { Request } from 'express';
import { ApiError } from '../errors.js';

const READS = new Set(['GET', 'HEAD']);

/** Whether the browser says the request comes from a page of another origin. */
function fromAnotherOrigin(req: Request): boolean {
  // same-site is another origin too: another port of localhost is the usual dev-server page.
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    const url = new URL(origin);
    return url.protocol !== 'http:' || url.host !== req.headers.host;
  } catch {
    return true; // "null" (sandboxed frames, file: pages) and anything unparsable
  }
}

/** The refusal of a control request a browser page could have forged, or null when it is fine. */
export function forgeable(req: Request): ApiError | null {
  if (fromAnotherOrigin(req)) {
    return new ApiError(
      'BAD_REQUEST',
      `Cross-origin requests to the control API are refused (Origin: ${req.headers.origin ?? 'none'}, Sec-Fetch-Site: ${req.headers['sec-fetch-site'] ?? 'none'})`,
      403,
    );
  }
  if (READS.has(req.method)) return null;
  // The header itself, not req.is(): that answers null for a request without a body (a DELETE).
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return new ApiError(
      'BAD_REQUEST',
      `The control API takes ${req.method} requests only with Content-Type: application/json (got ${req.headers['content-type'] ?? 'none'})`,
      415,
    );
  }
  const q = req.originalUrl.indexOf('?');
  if (q >= 0 && q < req.originalUrl.length - 1) {
    return new ApiError(
      'BAD_REQUEST',
      `The control API reads the parameters of ${req.method} requests from the JSON body only, not the query string`,
      400,
    );
  }
  return null;
}
