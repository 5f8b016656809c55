// The /__mock control API as an Express router: the token gate, JSON bodies, and the same
// pipeline as the API (compiled from openapi/control.yaml, responses checked against it).
import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { sharedControlContract } from './contract.js';
import { Responder } from '../http/respond.js';
import { ApiError } from '../errors.js';
import { TOKEN_HEADER } from '../http/mock-headers.js';
import { pipeline } from '../pipeline/pipeline.js';
import type { Adopt } from '../pipeline/authenticate.js';
import { emptyHooks, type PipelineHooks } from '../pipeline/hooks.js';
import type { ServerInfo } from '../domain/server-info.js';
import type { World } from '../world.js';
import { controlViews, type ControlHost } from './views.js';
import { BODY_LIMIT_BYTES } from '../http/body.js';
import { inspectorStatic } from './inspector-assets.js';
import { journalStream } from './journal-stream.js';
import { forgeable } from './browser-guard.js';
import { outboxControlViews } from './outbox-views.js';
import type { OutboxStreams } from './outbox-stream.js';

/** PUT /__mock/state: an exported state (3,000 sends make 1.6 MB; the limit leaves room for far more). */
const IMPORT_LIMIT_BYTES = 64 * 1024 * 1024;

export interface ControlOptions {
  host: ControlHost;
  server: ServerInfo;
  worldFor: (req: Request) => World;
  /** Makes the sandbox a routed request names (see Sandboxes.adopt in src/sandboxes.ts). */
  adopt?: Adopt;
  /** Required token; null means none is needed. */
  token: string | null;
  /** True when the server listens beyond loopback and no token was given: the API is closed. */
  closed: boolean;
  log: (line: string) => void;
  /** The server's exchange ID sequence. */
  nextId: () => number;
  /** Held before answering a call that changed its world (durable mode: until it is on disk). */
  beforeRespond?: PipelineHooks['beforeRespond'];
  /** The live outbox feeds (GET /__mock/outbox/stream), ended by the server when it closes. */
  outboxStreams?: OutboxStreams;
}

/**
 * Compares a presented control token with the expected one in constant time. Both are hashed
 * first, so the comparison neither depends on where they differ nor leaks the expected length.
 */
function sameToken(presented: string | string[] | undefined, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

export function controlRouter(options: ControlOptions): express.Router {
  const contract = sharedControlContract();
  const responder = new Responder(contract, { strictResponses: false, log: options.log });
  const router = express.Router();
  // The same stages as the API; control answers are never reused, intercepted or journalled.
  const { handle, refuse } = pipeline(
    {
      contract,
      responder,
      views: { authenticated: {}, open: { ...controlViews(options.host), ...outboxControlViews(options.host) } },
      serverAt: () => options.server,
      serverLevel: options.server.featureLevel,
      worldFor: options.worldFor,
      adopt: options.adopt,
      nextId: options.nextId,
    },
    { ...emptyHooks(), beforeRespond: options.beforeRespond ?? [] },
  );

  router.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path === '/ui' || req.path.startsWith('/ui/')) return next();
    const forged = forgeable(req);
    if (forged) return refuse(req, res, forged);
    if (options.closed) {
      return refuse(
        req,
        res,
        new ApiError(
          'UNAUTHORIZED',
          'The control API is closed: the server listens beyond loopback; start it with --control-token',
          401,
        ),
      );
    }
    if (options.token && !sameToken(req.headers[TOKEN_HEADER], options.token)) {
      return refuse(
        req,
        res,
        new ApiError('UNAUTHORIZED', `Missing or wrong control token (header X-Mock-Token)`, 401),
      );
    }
    next();
  });
  // The web inspector (GET /__mock/ui) and its live journal feed, outside the JSON pipeline.
  router.use('/ui', inspectorStatic());
  router.get('/journal/stream', journalStream(options.host.journal));
  if (options.outboxStreams) router.get('/outbox/stream', options.outboxStreams.handler());
  // An import takes back whatever an export gave, at any size the mock holds; other calls are small.
  router.put('/state', express.json({ limit: IMPORT_LIMIT_BYTES }));
  router.use(express.json({ limit: BODY_LIMIT_BYTES }));
  router.use(handle);
  return router;
}
