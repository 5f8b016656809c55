// The life of one request, read top to bottom: a list of named stages run in order. A stage that
// decides the answer (an error, a scenario, a reused answer, the view's data shaped) ends the run
// of the ordinary stages; "respond" and "record" run for every request. Everything else attaches
// to a stage through PipelineHooks. Synchronous unless a stage waits (most requests never do).
import type { Request, Response } from 'express';
import type { Contract } from '../contract/contract.js';
import type { RawValues } from '../contract/decode.js';
import { ApiError } from '../errors.js';
import { exchangeOf } from '../http/exchange.js';
import type { Responder } from '../http/respond.js';
import type { World } from '../world.js';
import { Call } from './call.js';
import type { PipelineHooks } from './hooks.js';
import { routeStage } from './route.js';
import { authenticateStage, type Adopt } from './authenticate.js';
import { decodeStage } from './decode.js';
import { interceptStage } from './intercept.js';
import { handleStage, type HandleDeps } from './handle.js';
import { shapeStage } from './shape.js';
import { respondStage } from './respond.js';
import type { Proxy } from './proxy.js';

export interface PipelineDeps extends HandleDeps {
  contract: Contract;
  responder: Responder;
  /** The level the server answers at unless a request or world says otherwise. */
  serverLevel: number;
  /** The world serving a request; throws an ApiError when none can (a bad sandbox name). */
  worldFor: (req: Request) => World;
  /** The next exchange ID (one sequence per server, shared by the API and the control API). */
  nextId: () => number;
  /** Proxy mode: the upstream answers what no scenario does. */
  proxy?: Proxy;
  /** Moves a routed request to the world it names when worldFor could only lend one (a sandbox not made yet). */
  adopt?: Adopt;
}

interface Stage {
  name: string;
  run: (call: Call) => Promise<void> | void;
  always?: true;
}

export function pipeline(deps: PipelineDeps, hooks: PipelineHooks) {
  const stages: Stage[] = [
    { name: 'route', run: routeStage(deps.contract, deps.serverLevel) },
    ...(deps.proxy ? [{ name: 'choose-upstream', run: deps.proxy.choose }] : []),
    { name: 'authenticate', run: authenticateStage(hooks.authenticated, deps.adopt) },
    { name: 'decode', run: decodeStage },
    { name: 'intercept', run: interceptStage(hooks.intercept) },
    ...(deps.proxy ? [{ name: 'forward', run: deps.proxy.forward }] : []),
    { name: 'handle', run: handleStage(deps, hooks.beforeHandle) },
    { name: 'shape', run: shapeStage },
    { name: 'respond', run: respondStage(deps.responder, hooks), always: true },
    {
      name: 'record',
      run: (call) => {
        for (const hook of hooks.record) hook(call.ex);
      },
      always: true,
    },
  ];

  /** Runs the stages from `i` on; an error becomes the answer and the run goes on to "respond". */
  function run(call: Call, i: number): Promise<void> | void {
    for (; i < stages.length; i++) {
      if ((call.answer || call.dropped) && !stages[i].always) continue;
      let wait: Promise<void> | void;
      try {
        wait = stages[i].run(call);
      } catch (err) {
        fail(call, err);
        continue;
      }
      if (wait)
        return wait.then(
          () => run(call, i + 1),
          (err) => {
            fail(call, err);
            return run(call, i + 1);
          },
        );
    }
  }

  function fail(call: Call, err: unknown): void {
    if (call.answer && call.answer.status !== 200) throw err; // respond or record itself broke: nothing more to try
    call.answer = deps.responder.errorAnswer(err, call.ex);
    call.dropped = false;
  }

  const exchange = (req: Request, world: World | null, query: RawValues) =>
    exchangeOf(deps.nextId(), req, world, query);

  /** Answers `req` with an error outside the stages (no world, an unknown route, a body that does not parse). */
  function refuse(req: Request, res: Response, err: unknown, world: World | null = null): void {
    const ex = exchange(req, world, {});
    deps.responder.fail(res, ex, err);
    for (const hook of hooks.record) hook(ex);
  }

  function handle(req: Request, res: Response): Promise<void> | void {
    // Express 5 parses the query string again at every read of req.query: read once.
    const parsed: unknown = req.query;
    const query = (parsed && typeof parsed === 'object' ? parsed : {}) as RawValues;
    let world: World;
    try {
      world = deps.worldFor(req);
    } catch (err) {
      if (err instanceof ApiError) return refuse(req, res, err);
      throw err;
    }
    return run(new Call(req, res, world, exchange(req, world, query), query), 0);
  }

  return { handle, refuse };
}
