// The parts of a world that belong to the mock's own surface: its active scenarios and its
// coverage counts. The world declares the slot (WorldParts in src/world.ts) and this module
// fills it in, so that the world, carried by every stage of the pipeline, never imports control.
import type { WorldParts } from '../world.js';
import { ScenarioSet } from './scenarios/engine.js';
import type { ErrorCatalog } from './scenarios/error-catalog.js';
import { CoverageCounts } from './coverage/counts.js';

declare module '../world.js' {
  interface WorldParts {
    /** Scenarios active in this world only. */
    readonly scenarios: ScenarioSet;
    /** What this world's requests exercised of the API; a reset keeps it (a suite resets between tests). */
    readonly coverage: CoverageCounts;
  }
}

export function worldParts(catalog: ErrorCatalog): WorldParts {
  const scenarios = new ScenarioSet(catalog);
  return { scenarios, coverage: new CoverageCounts(), reset: () => scenarios.restart() };
}
