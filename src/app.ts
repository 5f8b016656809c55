// createApp wires the contract, the views and the worlds into an Express application. No I/O
// happens at import time; the composition roots (cli.ts, index.ts) decide files and ports.
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

export function createApp(deps: AppDeps): express.Express {
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
  app.use(function dispatch(req: Request, res: Response, next: NextFunction) {
    if (hostAllowed && !hostAllowed(req.headers.host)) return refuse(req, res, hostNotAllowed(req.headers.host));
    deps.rewrite?.(req);
    const url = req.url;
    if (
      url.startsWith(API_PREFIX) &&
      (url.length === API_PREFIX.length || url[API_PREFIX.length] === '/' || url[API_PREFIX.length] === '?')
    ) {
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
  });
  for (const [path, router] of deps.mounts ?? []) app.use(path, router);
  const worldOrNull = (req: Request) => {
    try {
      return deps.worldFor(req);
    } catch {
      return null;
    }
  };
  // Anything else is an unknown route, answered with the same envelope.
  app.use((req: Request, res: Response) => refuse(req, res, notFound(), worldOrNull(req)));
  // Body parser failures (too large, bad multipart) and anything unexpected end here.
  app.use((err: any, req: Request, res: Response, _next: NextFunction) => {
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
  });
  return app;
}
