// Cross-origin access for browser-based clients (--cors ORIGIN). The real server sends no CORS
// headers, so this is off unless origins are given; it wraps the API handler only, so the
// control API (/__mock) never answers another origin. Preflights (OPTIONS) are answered here.
import cors from 'cors';
import type { RequestHandler } from 'express';

export function withCors(origins: readonly string[] | undefined, handler: RequestHandler): RequestHandler {
  if (!origins?.length) return handler;
  const allow = cors({
    origin: [...origins],
    // Browsers may cache a preflight this long (seconds), sparing one round trip per call.
    maxAge: 600,
    // Headers of the API's answers a client reads: rate limits and the authentication challenge.
    exposedHeaders: ['Retry-After', 'WWW-Authenticate'],
  });
  return (req, res, next) => allow(req, res, (err?: unknown) => (err ? next(err) : handler(req, res, next)));
}
