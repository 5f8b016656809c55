// Reads a fixture or data file into a State, with errors that name the file and the problem.
import { readFileSync, existsSync } from 'node:fs';
import { packagePath } from '../package-root.js';
import type { State } from './state.js';
import { rowProblem } from './check-rows.js';
import { COLLECTIONS, schemaProblem } from './state-schema.js';
import { checkLinkifierPattern } from '../domain/render/linkifiers.js';

export class FixtureError extends Error {}

/** Where a --data snapshot keeps its log sequence number (read and removed by persist.ts). */
export const SNAPSHOT_SEQ_KEY = '_log_seq';

/** The fixture shipped with the package (fixtures/default.json). */
export function defaultFixturePath(): string {
  const file = packagePath('fixtures', 'default.json');
  if (!existsSync(file)) throw new FixtureError(`the embedded fixture ${file} is missing`);
  return file;
}

/**
 * Checks a whole state against the schema of the State type and the rules between rows; a
 * missing collection becomes an empty one. Throws a FixtureError naming the JSON path.
 */
export function checkState(data: unknown, source: string): State {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new FixtureError(`${source}: the top level must be a JSON object`);
  const state = data as Record<string, unknown>;
  for (const name of COLLECTIONS) if (state[name] === undefined) state[name] = [];
  // A data file's snapshot carries its log position beside the state (see persist.ts).
  const { [SNAPSHOT_SEQ_KEY]: _seq, ...rest } = state;
  const problem = schemaProblem(rest) ?? rowProblem(state) ?? linkifierProblem(state as unknown as State);
  if (problem) throw new FixtureError(`${source}: ${problem}`);
  return state as unknown as State;
}

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

export function readStateFile(file: string): State {
  return stateSource(file)();
}

/**
 * A fixture or data file kept as the bytes it was read as: each call parses a fresh State. A
 * world that may be reset needs a pristine copy beside its own; as bytes it takes half the
 * memory of a parsed copy, and parsing it costs less than copying one.
 */
export function stateSource(file: string): () => State {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new FixtureError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return () => parseState(bytes.toString('utf8'), file);
}

function parseState(text: string, file: string): State {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new FixtureError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  return checkState(data, file);
}

/** A deep copy, so that resets always start from the pristine fixture. */
export const cloneState = (state: State): State => structuredClone(state);
