// The /api/v1 pipeline, one small stage after another:
//   route -> authenticate -> decode and validate -> (scenario rules) -> view -> respond.
// Every answer, success or error, leaves through Responder.finish.
import type { Request, Response } from 'express';
import type { Contract } from '../contract/contract.js';
import { decodeParams, type Decoded } from '../contract/decode.js';
import { ApiError, methodNotAllowed, notFound, notImplemented } from '../errors.js';
import type { Ctx, ViewTable } from '../domain/context.js';
import type { ServerInfo } from '../domain/server-info.js';
import type { World } from '../world.js';
import { authenticate } from './auth.js';
import { supportsAt } from '../contract/behaviours.js';
import { applyShape, fieldExistsAt } from '../contract/shape.js';
import { errorBody, successBody } from './envelope.js';
import type { Exchange } from './exchange.js';
import type { Responder } from './respond.js';
import { AnswerCache } from './answer-cache.js';

export interface Interception {
  /** Name of the scenario that answered. */
  scenario: string;
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * The single hook where scenarios act, after routing and authentication and before the view;
 * returns an answer to send instead of the view's, if any. `params` decodes on demand (null when
 * the request's parameters do not decode), so rules that need no parameters fire even on bad input.
 */
export type Interceptor = (ex: Exchange, req: Request, world: World, params: () => Record<string, unknown> | null) =>
  Promise<Interception | 'drop' | null> | Interception | 'drop' | null;

export interface ApiDeps {
  contract: Contract;
  views: ViewTable;
  /** What the server reports at its configured level, and at any other (cached by the caller). */
  server: ServerInfo;
  serverAt?: (level: number) => ServerInfo;
  responder: Responder;
  worldFor: (req: Request) => World;
  interceptor?: Interceptor;
  /** Reuse answers to reads while the state and the second stay the same (the control API does not: its reads see more than the state). */
  answerCache?: boolean;
  /** Awaited before answering a request that changed its world (durable persistence). */
  settle?: (world: World) => Promise<void> | undefined;
  log: (line: string) => void;
}

let nextExchangeId = 1;

/** A new journal record for `req`; the world is the one serving it, if it could be chosen. */
export function newExchange(req: Request, world: World | null): Exchange {
  const raw: Record<string, unknown> = {};
  const body = (req.body && typeof req.body === 'object') ? req.body : {};
  const query = (req.query && typeof req.query === 'object') ? req.query : {};
  for (const [k, v] of Object.entries(query)) raw[k] = v;
  for (const [k, v] of Object.entries(body)) raw[k] = v;
  return {
    id: nextExchangeId++, time: world?.clock.nowMs() ?? Date.now(), started: performance.now(), duration_ms: 0, sandbox: world?.name ?? '',
    method: req.method, path: req.path, operation: null, user: null, raw, params: null,
    status: 0, body: null, problems: [], scenario: null,
  };
}

export const FEATURE_LEVEL_HEADER = 'x-mock-feature-level';

/** The level to answer at: the request's header, else its world's setting, else the server's. */
function requestLevel(req: Request, world: World, serverLevel: number): number {
  const header = req.headers[FEATURE_LEVEL_HEADER];
  if (header === undefined) return world.featureLevel ?? serverLevel;
  const text = Array.isArray(header) ? header[header.length - 1] : header;
  if (!/^\d{1,4}$/.test(text.trim())) throw new ApiError('BAD_REQUEST', `Invalid X-Mock-Feature-Level: ${text}`);
  return Number(text);
}

function clientName(req: Request): string {
  const ua = req.headers['user-agent'] ?? '';
  return ua.split('/')[0] || 'API';
}

/** The part of a request besides the world, state and second that a read's answer depends on. */
function answerKey(req: Request, opId: string, actor: { user_id: number } | null, level: number): string {
  return `${opId} ${actor?.user_id ?? ''} ${level} ${req.url}`;
}

export function apiHandler(deps: ApiDeps) {
  const { contract, views, responder } = deps;
  const answers = new WeakMap<World, AnswerCache>();
  const answerCacheFor = (world: World) => {
    let cache = answers.get(world);
    if (!cache) answers.set(world, cache = new AnswerCache());
    return cache;
  };
  return async function handle(req: Request, res: Response): Promise<void> {
    let world: World;
    try {
      world = deps.worldFor(req);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      responder.finish(res, newExchange(req, null), err.status, errorBody(err), err.headers);
      return;
    }
    const ex = newExchange(req, world);
    try {
      const level = requestLevel(req, world, deps.server.featureLevel);
      const match = contract.router.match(req.method, req.baseUrl + req.path, level);
      if (match.kind === 'not-found') throw notFound();
      if (match.kind === 'wrong-method') throw methodNotAllowed(match.allowed);
      const op = match.op;
      ex.operation = op;
      const actor = op.authenticated ? authenticate(world.store, req.headers.authorization) : null;
      ex.user = actor;
      const body = (req.body && typeof req.body === 'object') ? req.body : {};
      let decoded: Decoded | null = null;
      let decodeError: unknown = null;
      const decode = (): Decoded | null => {
        if (!decoded && !decodeError) {
          try { decoded = decodeParams(op, match.pathValues, body, req.query as Record<string, unknown>, level); } catch (err) { decodeError = err; }
        }
        return decoded;
      };
      if (deps.interceptor) {
        const hit = await deps.interceptor(ex, req, world, () => decode()?.params ?? null);
        if (hit === 'drop') { ex.scenario = ex.scenario ?? 'drop'; ex.status = 0; responder.dropped(ex); req.socket.destroy(); return; }
        if (hit) { ex.params = decode()?.params ?? null; ex.scenario = hit.scenario; responder.finish(res, ex, hit.status, hit.body, hit.headers); return; }
      }
      // Reads without a body may be answered again from the cache (GET /events consumes events).
      const cache = deps.answerCache && op.cacheable && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined
        ? answerCacheFor(world) : null;
      const second = world.clock.now();
      const key = cache ? answerKey(req, op.id, actor, level) : '';
      const cached = cache?.get(world.store, second, key);
      if (cached) {
        ex.params = cached.params;
        responder.replay(res, ex, cached.body, cached.bytes);
        return;
      }
      const { params, ignored } = decode() ?? (() => { throw decodeError; })();
      ex.params = params;
      const ctx: Ctx = {
        store: world.store, actor: actor!, clock: world.clock, events: world.events,
        server: level === deps.server.featureLevel || !deps.serverAt ? deps.server : deps.serverAt(level),
        featureLevel: level, supports: (key) => supportsAt(level, key),
        hasField: (schema, field) => fieldExistsAt(contract.doc, schema, field, level), clientName: clientName(req), sandbox: world.name,
      };
      const view = views[op.id];
      if (!view) throw notImplemented(op.id);
      const versionBefore = world.store.version;
      const data = await view(ctx, params);
      if (deps.settle && world.store.version !== versionBefore) await deps.settle(world);
      const shaped = op.shape && data ? (applyShape(data, op.shape, level) as typeof data) : data;
      // Settings endpoints listed unsupported parameters from FL 78, every endpoint from FL 167.
      const ignoredFrom = op.spec['x-ignored-parameters-from'];
      const withIgnored = typeof ignoredFrom === 'number' ? level >= ignoredFrom : ctx.supports('ignored_parameters_unsupported');
      const answer = successBody(shaped, ignored, withIgnored);
      responder.finish(res, ex, 200, answer);
      if (cache && ex.status === 200 && !ex.problems.length && world.clock.now() === second) {
        cache.put(world.store, versionBefore, second, key, { params, body: answer, bytes: ex.bodyBytes! });
      }
    } catch (err) {
      if (err instanceof ApiError) {
        responder.finish(res, ex, err.status, errorBody(err), err.headers);
        return;
      }
      deps.log(`teamchat-mock: unexpected error in ${req.method} ${req.path}: ${(err as Error).stack ?? err}`);
      const internal = new ApiError('INTERNAL_SERVER_ERROR', 'Internal server error', 500);
      responder.finish(res, ex, 500, errorBody(internal));
    }
  };
}
