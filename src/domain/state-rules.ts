// The domain's rules on a whole state, beyond its schema and the rules between rows: every way a
// state comes in (fixture, --data file, import, a scenario's state patch, a recording) passes
// them to the store's checkState, which cannot import them (the store sits below the domain).
import type { State } from '../store/state.js';
import type { StateRule } from '../store/fixture.js';
import { checkLinkifierPattern } from './render/linkifiers.js';

/**
 * A linkifier whose pattern RE2 cannot compile (lookaround, backreferences...) would be refused
 * by the linkifier operations; it must not come in through a fixture, an import or a scenario.
 */
function linkifierProblem(state: State): string | null {
  for (let i = 0; i < state.linkifiers.length; i++) {
    try {
      checkLinkifierPattern(state.linkifiers[i].pattern);
    } catch (err) {
      return `$.linkifiers[${i}].pattern: ${(err as Error).message}`;
    }
  }
  return null;
}

export const STATE_RULES: readonly StateRule[] = [linkifierProblem];
