// A scenario file is held to the same description as an inline definition (openapi/control.yaml,
// ScenarioDefinition): a rule that would send a status outside 100-599 or set a framing or
// hop-by-hop header is refused when the scenario is loaded, not when a response goes out broken.
// TypeScript scenarios' functions (respond, setup) are code, not data: the rest is checked.
import { badRequest } from '../../errors.js';
import { describeProblem } from '../../contract/problems.js';
import { sharedControlContract } from '../contract.js';
import type { Scenario } from './types.js';

/** The scenario as data: what a JSON definition of it would hold. */
function dataOf(scenario: Scenario): Record<string, unknown> {
  const { setup: _setup, ...data } = scenario as Scenario & { setup?: unknown };
  const rules = Array.isArray(data.rules)
    ? data.rules.map((rule) => (typeof rule?.respond === 'function' ? { ...rule, respond: {} } : rule))
    : data.rules;
  return { ...data, rules };
}

/** Throws BAD_REQUEST naming the first problem of a scenario loaded from `source`. */
export function checkScenario(scenario: Scenario, source: string): void {
  const param = sharedControlContract().byId.get('mock-activate-scenario')?.paramsByName.get('definition');
  if (!param) throw new Error('openapi/control.yaml: mock-activate-scenario has no definition');
  if (!param.validate(dataOf(scenario)))
    throw badRequest(`Scenario ${source}: ${describeProblem('definition', param.validate.errors ?? [])}`);
}
