// The email change link's own page, GET /accounts/confirm_new_email/<key> at the site root, as the
// real server serves it: following the link makes the change (a GET that changes state, as on
// the real server: the key, 120 random bits only the outbox shows, is what authorizes it).
// The same action as POST /__mock/email-changes/confirm, answered as a tiny HTML page that says
// what happened, with the status the control call answers. The page runs nothing and loads
// nothing (its policy allows no script, no frame, no form), keeps the key out of referrers and
// caches, and escapes every address it shows.
import express, { type Request, type Response } from 'express';
import { ApiError } from '../errors.js';
import type { WorldCtx } from '../domain/context.js';
import { confirmEmailChange } from '../domain/users/email-change-requests.js';
import type { World } from '../world.js';

const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c as '&']);

function page(res: Response, status: number, title: string, body: string): void {
  res.status(status).set(PAGE_HEADERS).type('text/html; charset=utf-8');
  res.send(
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></body></html>\n`,
  );
}

/** Mounted at /accounts/confirm_new_email; `worldFor` names the request's world (sandboxes too). */
export function confirmEmailChangePage(worldFor: (req: Request) => World): express.Router {
  const router = express.Router();
  router.get('/:key', (req: Request, res: Response) => {
    try {
      const world = worldFor(req);
      const ctx: WorldCtx = { store: world.store, events: world.events, clock: world.clock };
      const done = confirmEmailChange(ctx, String(req.params.key));
      page(
        res,
        200,
        'Email address changed',
        `The email address of your account is now ${done.new_email} (it was ${done.old_email}).`,
      );
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      page(res, err.status, 'Email address not changed', err.message);
    }
  });
  return router;
}
