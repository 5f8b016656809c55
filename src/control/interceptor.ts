// Connects scenarios to the pipeline's "intercept" stage: the world's active scenarios, plus the
// ones a single request names in `X-Mock-Scenario: NAME[, NAME...]` (fresh each time, rules only).
import type { Request } from 'express';
import { ApiError } from '../errors.js';
import { errorBody } from '../http/envelope.js';
import { SCENARIO_HEADER } from '../http/mock-headers.js';
import type { Call } from '../pipeline/call.js';
import type { World } from '../world.js';
import type { Interception } from './scenarios/types.js';
import { ActiveScenario } from './scenarios/engine.js';
import { loadScenarioByName } from './scenarios/load.js';

async function perRequest(req: Request, world: World): Promise<ActiveScenario[]> {
  const header = req.headers[SCENARIO_HEADER];
  if (!header) return [];
  const names = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const out: ActiveScenario[] = [];
  for (const name of names) {
    const scenario = await loadScenarioByName(name);
    world.parts.scenarios.check(scenario);
    out.push(new ActiveScenario({ ...scenario, state: undefined, setup: undefined }, `header:${name}`));
  }
  return out;
}

/** The intercept hook: synchronous when there is nothing to do (nearly always). */
export function scenarioInterceptor(): (call: Call) => Promise<Interception | 'drop' | null> | null {
  return (call) => {
    if (!call.req.headers[SCENARIO_HEADER] && !call.world.parts.scenarios.active.length) return null;
    return intercept(call);
  };
}

async function intercept(call: Call): Promise<Interception | 'drop' | null> {
  const { req, world, ex, op } = call;
  let extra: ActiveScenario[];
  try {
    extra = await perRequest(req, world);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { scenario: 'X-Mock-Scenario', status: err.status, body: errorBody(err) };
  }
  if (!extra.length && !world.parts.scenarios.active.length) return null;
  return world.parts.scenarios.intercept(
    {
      operation: op.id,
      method: ex.method,
      template: op.path,
      path: ex.path,
      params: () => call.params,
      user: call.actor ? { email: call.actor.email, user_id: call.actor.user_id } : null,
    },
    world.store,
    extra,
  );
}
