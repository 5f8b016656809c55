// Connects scenarios to the API pipeline: the world's active scenarios, plus the ones a single
// request names in `X-Mock-Scenario: NAME[, NAME...]` (fresh each time, rules only).
import type { Request } from 'express';
import type { Interception, Interceptor } from '../http/api-handler.js';
import { ApiError } from '../errors.js';
import { errorBody } from '../http/envelope.js';
import { ActiveScenario } from './scenarios/engine.js';
import { loadScenarioByName } from './scenarios/load.js';

export const SCENARIO_HEADER = 'x-mock-scenario';

async function perRequest(req: Request): Promise<ActiveScenario[]> {
  const header = req.headers[SCENARIO_HEADER];
  if (!header) return [];
  const names = (Array.isArray(header) ? header.join(',') : header).split(',').map((s) => s.trim()).filter(Boolean);
  const out: ActiveScenario[] = [];
  for (const name of names) out.push(new ActiveScenario({ ...(await loadScenarioByName(name)), state: undefined, setup: undefined }, `header:${name}`));
  return out;
}

export function scenarioInterceptor(): Interceptor {
  // Synchronous when there is nothing to do (nearly always): a promise costs every request a turn.
  return (ex, req, world, params) => {
    if (!req.headers[SCENARIO_HEADER] && !world.scenarios.active.length) return null;
    return intercept(ex, req, world, params);
  };
}

async function intercept(...[ex, req, world, params]: Parameters<Interceptor>): Promise<Interception | 'drop' | null> {
  let extra: ActiveScenario[];
  try {
    extra = await perRequest(req);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { scenario: 'X-Mock-Scenario', status: err.status, body: errorBody(err) };
  }
  if (!extra.length && !world.scenarios.active.length) return null;
  const op = ex.operation!;
  return world.scenarios.intercept({
    operation: op.id, method: ex.method, template: op.path, path: ex.path, params,
    user: ex.user ? { email: ex.user.email, user_id: ex.user.user_id } : null,
  }, world.store, extra);
}
