// The /api/v1 pipeline, one small stage after another:
//   route -> authenticate -> decode and validate -> (scenario rules) -> view -> respond.
// Every answer, success or error, leaves through Responder.finish.
import type { Request, Response } from 'express';
import type { Contract } from '../contract/contract.js';
import { decodeParams, type Decoded, type RawValues } from '../contract/decode.js';
import { ApiError, methodNotAllowed, notFound, notImplemented } from '../errors.js';
import type { Ctx, ViewResult, ViewTable } from '../domain/context.js';
import type { Operation } from '../contract/operations.js';
import type { User } from '../store/state.js';
import type { ServerInfo } from '../domain/server-info.js';
import type { World } from '../world.js';
import { authenticate } from './auth.js';
import { supportsAt } from '../contract/behaviours.js';
import { applyShape, fieldExistsAt } from '../contract/shape.js';
import { successBody } from './envelope.js';
import { ExchangeRecord, type Exchange } from './exchange.js';
import type { Responder } from './respond.js';
import { AnswerCache } from './answer-cache.js';
import { hasBody } from './body.js';

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
  /** Counts an authenticated request, sets its rate-limit headers, throws RATE_LIMIT_HIT (http/rate-limit.ts). */
  rateLimit?: (world: World, userId: number, res: Response) => void;
  /** Awaited before answering a request that changed its world (durable persistence). */
  settle?: (world: World) => Promise<void> | undefined;
  log: (line: string) => void;
}

let nextExchangeId = 1;

/** A new journal record for `req`; the world is the one serving it, if it could be chosen. */
export function newExchange(req: Request, world: World | null, query: RawValues = queryOf(req)): Exchange {
  const body = (req.body && typeof req.body === 'object') ? req.body : {};
  return new ExchangeRecord(nextExchangeId++, world?.clock.nowMs() ?? Date.now(), world?.name ?? '', req.method, req.path, query, body);
}

/** The parsed query string (Express parses it again on every read of req.query). */
function queryOf(req: Request): RawValues {
  const query = req.query;
  return query && typeof query === 'object' ? query as RawValues : {};
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
  const slash = ua.indexOf('/');
  return (slash < 0 ? ua : ua.slice(0, slash)) || 'API';
}

/** The part of a request besides the world, state and second that a read's answer depends on. */
function answerKey(req: Request, opId: string, actor: { user_id: number } | null, level: number): string {
  return `${opId} ${actor?.user_id ?? ''} ${level} ${req.url}`;
}

/** What the pipeline knows of a request once it is routed and its caller known. */
interface Call {
  req: Request;
  res: Response;
  world: World;
  ex: Exchange;
  op: Operation;
  level: number;
  actor: User | null;
  /** Decodes the parameters (once; a failure is thrown again on every call). */
  decode: () => Decoded;
}

/** The decoded parameters, or null when they do not decode (for scenario rules and the journal). */
function paramsOrNull(call: Call): Record<string, unknown> | null {
  try { return call.decode().params; } catch { return null; }
}

export function apiHandler(deps: ApiDeps) {
  const { contract, views, responder } = deps;
  const answers = new WeakMap<World, AnswerCache>();
  const answerCacheFor = (world: World) => {
    let cache = answers.get(world);
    if (!cache) answers.set(world, cache = new AnswerCache());
    return cache;
  };

  /** Routes, picks the level and authenticates; throws the ApiError to answer otherwise. */
  function route(req: Request, res: Response, world: World, ex: Exchange, query: RawValues): Call {
    const level = requestLevel(req, world, deps.server.featureLevel);
    const match = contract.router.match(req.method, req.baseUrl + req.path, level);
    if (match.kind === 'not-found') throw notFound();
    if (match.kind === 'wrong-method') throw methodNotAllowed(match.allowed);
    const op = match.op;
    ex.operation = op;
    const actor = op.authenticated ? authenticate(world.store, req.headers.authorization) : null;
    ex.user = actor;
    if (actor) deps.rateLimit?.(world, actor.user_id, res);
    const body = (req.body && typeof req.body === 'object') ? req.body : {};
    let decoded: Decoded | null = null;
    let failure: { err: unknown } | null = null;
    const decode = (): Decoded => {
      if (failure) throw failure.err;
      try {
        return decoded ??= decodeParams(op, match.pathValues, body, query, level);
      } catch (err) {
        failure = { err };
        throw err;
      }
    };
    return { req, res, world, ex, op, level, actor, decode };
  }

  /** Answers with a scenario's response; false when no rule fired. */
  function intercepted(call: Call, hit: Interception | 'drop' | null): boolean {
    const { req, res, ex } = call;
    if (hit === 'drop') { ex.scenario = ex.scenario ?? 'drop'; ex.status = 0; responder.dropped(ex); req.socket.destroy(); return true; }
    if (!hit) return false;
    ex.params = paramsOrNull(call);
    ex.scenario = hit.scenario;
    responder.finish(res, ex, hit.status, hit.body, hit.headers);
    return true;
  }

  /** Runs the view and answers; a promise only when the view or durable persistence waits. */
  function answer(call: Call): Promise<void> | void {
    const { req, res, world, ex, op, level, actor } = call;
    // Reads without a body may be answered again from the cache (GET /events consumes events).
    const cache = deps.answerCache && op.cacheable && !hasBody(req) ? answerCacheFor(world) : null;
    const second = cache ? world.clock.now() : 0;
    const key = cache ? answerKey(req, op.id, actor, level) : '';
    const cached = cache?.get(world.store, second, key);
    if (cached) {
      ex.params = cached.params;
      responder.replay(res, ex, cached.body, cached.bytes);
      return;
    }
    const { params, ignored } = call.decode();
    ex.params = params;
    const ctx: Ctx = {
      store: world.store, actor: actor!, clock: world.clock, events: world.events,
      server: level === deps.server.featureLevel || !deps.serverAt ? deps.server : deps.serverAt(level),
      supports: (k) => supportsAt(level, k),
      hasField: (schema, field) => fieldExistsAt(contract.doc, schema, field, level), clientName: clientName(req), sandbox: world.name,
    };
    const view = views[op.id];
    if (!view) throw notImplemented(op.id);
    const versionBefore = world.store.version;
    const respond = (data: ViewResult): void => {
      const shaped = op.shape && data ? (applyShape(data, op.shape, level) as typeof data) : data;
      // Settings endpoints listed unsupported parameters from FL 78, every endpoint from FL 167.
      const ignoredFrom = op.spec['x-ignored-parameters-from'];
      const withIgnored = typeof ignoredFrom === 'number' ? level >= ignoredFrom : ctx.supports('ignored_parameters_unsupported');
      const body = successBody(shaped, ignored, withIgnored);
      responder.finish(res, ex, 200, body);
      if (cache && ex.status === 200 && !ex.problems.length && world.clock.now() === second) {
        cache.put(world.store, versionBefore, second, key, { params, body, bytes: ex.bodyBytes! });
      }
    };
    const settled = (data: ViewResult): Promise<void> | void => {
      const wait = deps.settle && world.store.version !== versionBefore ? deps.settle(world) : undefined;
      if (wait) return wait.then(() => respond(data));
      respond(data);
    };
    const data = view(ctx, params);
    if (data instanceof Promise) return data.then(settled);
    return settled(data);
  }

  return function handle(req: Request, res: Response): Promise<void> | void {
    const query = queryOf(req);
    let world: World;
    try {
      world = deps.worldFor(req);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      responder.fail(res, newExchange(req, null, query), err);
      return;
    }
    const ex = newExchange(req, world, query);
    const failed = (err: unknown) => responder.fail(res, ex, err);
    try {
      const call = route(req, res, world, ex, query);
      const hit = deps.interceptor?.(ex, req, world, () => paramsOrNull(call)) ?? null;
      if (hit instanceof Promise) {
        return hit.then((h) => (intercepted(call, h) ? undefined : answer(call))).catch(failed);
      }
      if (intercepted(call, hit)) return;
      const done = answer(call);
      if (done) return done.catch(failed);
    } catch (err) {
      failed(err);
    }
  };
}
