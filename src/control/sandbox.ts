// Sandboxes: one running server, many isolated worlds. A request picks its world with the header
// `X-Mock-Sandbox: NAME`, or with the path prefix /sandbox/NAME/ (for clients that cannot add
// headers: point them at http://host:port/sandbox/NAME as the site). No choice means "default".
import type { Request } from 'express';

import { SANDBOX_HEADER } from '../http/mock-headers.js';
const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const PREFIX = /^\/sandbox\/([^/?]+)(\/.*)?$/;

declare module 'express-serve-static-core' {
  interface Request {
    mockSandbox?: string;
    /** A sandbox the request names that is not made yet (the request is served by the template world meanwhile). */
    mockSandboxWanted?: string;
  }
}

/** Strips a /sandbox/NAME prefix and remembers the name; runs before every route. */
export function sandboxPrefix(req: Request): void {
  if (!req.url.startsWith('/sandbox/')) return;
  const m = PREFIX.exec(req.url);
  if (m && NAME.test(m[1])) {
    req.mockSandbox = m[1];
    req.url = m[2] ?? '/';
  }
}

/** The sandbox a request asked for (prefix first, then header), or null when the name is invalid. */
export function sandboxName(req: Request): string | null {
  if (req.mockSandbox) return req.mockSandbox;
  const header = req.headers[SANDBOX_HEADER];
  const value = Array.isArray(header) ? header[header.length - 1] : header;
  if (value === undefined || value === '') return 'default';
  return NAME.test(value) ? value : null;
}
