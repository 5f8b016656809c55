// createApp wires the contract, the views and the worlds into an Express application. No I/O
// happens at import time; the composition roots (cli.ts, index.ts) decide files and ports.
import type http from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ApiError, notFound } from './errors.js';
import { bodyTooLarge, withFormBody } from './http/body.js';
import { withCors } from './http/cors.js';
import { hostHeaderCheck, hostNotAllowed } from './http/host-check.js';
import { pipeline, type PipelineDeps } from './pipeline/pipeline.js';
import type { PipelineHooks } from './pipeline/hooks.js';

export interface AppDeps extends PipelineDeps {
  hooks: PipelineHooks;
  /** Run on every request before anything else, synchronously (the sandbox path prefix). */
  rewrite?: (req: Request) => void;
  /** Origins allowed to call the API from a browser (see src/http/cors.ts); off when absent. */
  cors?: string[];
  /** Whether a Host name is one the server answers (DNS rebinding, see src/http/host-check.ts); all when absent. */
  hostAllowed?: (name: string) => boolean;
  /** Extra routers mounted beside the API (the /__mock control API, the inspector). */
  mounts?: Array<[string, express.Router]>;
}

/** The application and the request listener a server is created with. */
export interface MockApp {
  /** The Express application: the control API, the other mounts, and every request the listener hands it. */
  express: express.Express;
  /** The server's request listener: API requests go straight to the pipeline, everything else to Express. */
  listener: (req: http.IncomingMessage, res: http.ServerResponse) => void;
}

export function createApp(deps: AppDeps): MockApp {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  const { handle, refuse } = pipeline(deps, deps.hooks);
  const api = withCors(deps.cors, withFormBody(handle));
  // One layer in front of everything: API requests (nearly all of them) go straight to their
  // handler. Each further Express layer matched its path and rewrote the URL on every request,
  // which cost more than the mock's own work on a simple GET.
  const API_PREFIX = deps.contract.prefix;
  const siteRoot = deps.contract.router.siteRootPrefixes;
  const hostAllowed = deps.hostAllowed && hostHeaderCheck(deps.hostAllowed);
  const isApiUrl = (url: string) =>
    url.startsWith(API_PREFIX) &&
    (url.length === API_PREFIX.length || url[API_PREFIX.length] === '/' || url[API_PREFIX.length] === '?');
  function dispatch(req: Request, res: Response, next: NextFunction) {
    if (hostAllowed && !hostAllowed(req.headers.host)) return refuse(req, res, hostNotAllowed(req.headers.host));
    deps.rewrite?.(req);
    const url = req.url;
    if (isApiUrl(url)) {
      // What mounting at /api/v1 did: the handler sees the path below the prefix.
      req.baseUrl = API_PREFIX;
      req.url =
        url.length === API_PREFIX.length || url[API_PREFIX.length] === '?'
          ? `/${url.slice(API_PREFIX.length)}`
          : url.slice(API_PREFIX.length);
      return api(req, res, next);
    }
    // The few operations served at the site root (downloads of uploads) run the same pipeline.
    for (const root of siteRoot)
      if (url.startsWith(root)) {
        req.baseUrl = '';
        return api(req, res, next);
      }
    next();
  }
  app.use(dispatch);
  for (const [path, router] of deps.mounts ?? []) app.use(path, router);
  const worldOrNull = (req: Request) => {
    try {
      return deps.worldFor(req);
    } catch {
      return null;
    }
  };
  // Anything else is an unknown route, answered with the same envelope.
  const unknownRoute = (req: Request, res: Response) => refuse(req, res, notFound(), worldOrNull(req));
  app.use(unknownRoute);
  // Body parser failures (too large, bad multipart) and anything unexpected end here.
  const failed = (err: any, req: Request, res: Response, _next: NextFunction) => {
    let apiErr: unknown = err;
    if (err?.type === 'entity.too.large' || err?.code === 'LIMIT_FIELD_VALUE' || err?.code === 'LIMIT_FILE_SIZE')
      apiErr = bodyTooLarge();
    else if (
      !(err instanceof ApiError) &&
      (err?.name === 'MulterError' || (typeof err?.status === 'number' && err.status >= 400 && err.status < 500))
    ) {
      apiErr = new ApiError(
        'BAD_REQUEST',
        `Malformed request body: ${err.message}`,
        typeof err.status === 'number' ? err.status : 400,
      );
    }
    refuse(req, res, apiErr, worldOrNull(req));
  };
  app.use(failed);

  /**
   * An API request (a path below the prefix, as nearly every request is) goes to `dispatch`
   * directly: through Express it passed its application and its router, which made a final
   * handler, matched the one layer, and made closures for it (a fifth of what a cheap read cost in
   * process). What they did for such a request is done here: the circular references, the
   * prototypes (in place already when the server makes its requests with expressObjects), the
   * original URL; `next` leads where Express's next layers did (the mounts never match an API
   * path, the sandbox prefix never rewrites one): to the unknown route, or, with an error, to
   * `failed`. Everything else is Express's, as before.
   */
  function listener(incoming: http.IncomingMessage, outgoing: http.ServerResponse): void {
    const req = incoming as Request;
    const res = outgoing as Response;
    if (!isApiUrl(req.url)) return void app(req, res);
    req.res = res;
    res.req = req;
    if (Object.getPrototypeOf(req) !== app.request) Object.setPrototypeOf(req, app.request);
    if (Object.getPrototypeOf(res) !== app.response) Object.setPrototypeOf(res, app.response);
    req.originalUrl = req.url;
    req.baseUrl = '';
    const next = (err?: unknown) => {
      try {
        if (err === undefined || err === null) unknownRoute(req, res);
        else failed(err, req, res, next);
      } catch (last) {
        // What Express's final handler did when the error handler itself failed: the error
        // logged (but under NODE_ENV=test), then a 500, or the connection closed when the
        // answer had begun.
        if (app.get('env') !== 'test') console.error((last as Error)?.stack ?? String(last));
        if (res.headersSent) req.socket.destroy();
        else {
          res.statusCode = 500;
          res.setHeader('Content-Type', 'text/plain; charset=utf-8');
          res.end('Internal Server Error');
        }
      }
    };
    try {
      const result: unknown = dispatch(req, res, next);
      if (result instanceof Promise) result.catch((err: unknown) => next(err ?? new Error('Rejected promise')));
    } catch (err) {
      next(err);
    }
  }
  return { express: app, listener };
}
