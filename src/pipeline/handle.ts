// Stage "handle": the operation's view runs in the domain context, built here and nowhere else.
import type { Contract } from '../contract/contract.js';
import { supportsAt } from '../contract/behaviours.js';
import { fieldExistsAt, variantAt } from '../contract/shape.js';
import { notImplemented } from '../errors.js';
import type { Ctx, FilePart, OpenCtx, ViewResult, Views } from '../domain/context.js';
import type { ServerInfo } from '../domain/server-info.js';
import { eventShaperAt } from '../domain/events/event-shape.js';

const NO_FILES: readonly FilePart[] = Object.freeze([]);
import type { Call } from './call.js';
import type { PipelineHooks } from './hooks.js';

export interface HandleDeps {
  contract: Contract;
  views: Views;
  /** What the server reports at a level (the configured one, or the request's). */
  serverAt: (level: number) => ServerInfo;
}

function clientName(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const slash = ua.indexOf('/');
  return (slash < 0 ? ua : ua.slice(0, slash)) || 'API';
}

type LevelTools = Pick<Ctx, 'supports' | 'hasField' | 'variantOf' | 'eventShaper'>;

/** What a context asks of its level, made once per level (not three closures on every request). */
function levelToolsOf(deps: HandleDeps, cache: Map<number, LevelTools>, level: number): LevelTools {
  let tools = cache.get(level);
  if (!tools)
    cache.set(
      level,
      (tools = {
        supports: (k) => supportsAt(level, k),
        hasField: (schema, field) => fieldExistsAt(deps.contract.doc, schema, field, level),
        variantOf: (schema, field) => variantAt(deps.contract.doc, schema, field, level),
        // At the newest level too: kinds of events the server stopped sending (EventKinds) are dropped.
        eventShaper: eventShaperAt(deps.contract.doc, level),
      }),
    );
  return tools;
}

/** The domain context: an authenticated operation's caller acts; an open operation's actor is null. */
function contextOf(call: Call, deps: HandleDeps, tools: LevelTools): Ctx | OpenCtx {
  const { world, level } = call;
  return {
    store: world.store,
    actor: call.actor,
    clock: world.clock,
    events: world.events,
    serviceBots: world.serviceBots,
    server: deps.serverAt(level),
    supports: tools.supports,
    hasField: tools.hasField,
    variantOf: tools.variantOf,
    eventShaper: tools.eventShaper,
    clientName: clientName(call.req.headers['user-agent']),
    sandbox: world.name,
    files: (call.req.files as FilePart[] | undefined) ?? NO_FILES,
    // Only for operations open to anyone: those that check their own kind of credentials.
    ...(call.op.authenticated ? {} : { authorization: call.req.headers.authorization }),
  } as Ctx | OpenCtx;
}

export function handleStage(deps: HandleDeps, hooks: PipelineHooks['beforeHandle']) {
  const toolsByLevel = new Map<number, LevelTools>();
  return function handle(call: Call): Promise<void> | void {
    for (const hook of hooks) if ((call.answer = hook(call))) return;
    const params = call.decoded();
    const { id, authenticated } = call.op;
    const view = (authenticated ? deps.views.authenticated : deps.views.open)[id as never] as
      ((ctx: Ctx & OpenCtx, params: unknown) => ViewResult | Promise<ViewResult>) | undefined;
    if (!view) throw notImplemented(id);
    const result = view(contextOf(call, deps, levelToolsOf(deps, toolsByLevel, call.level)) as Ctx & OpenCtx, params);
    if (result instanceof Promise)
      return result.then((data) => {
        call.data = data;
      });
    call.data = result;
  };
}
