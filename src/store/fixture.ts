// Reads a fixture or data file into a State, with errors that name the file and the problem.
import { createHash } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { packagePath } from '../package-root.js';
import type { State } from './state.js';
import { rowProblem } from './check-rows.js';
import { COLLECTIONS, schemaProblem } from './state-schema.js';

export class FixtureError extends Error {}

/**
 * A rule on a whole state that the schema cannot say and the store does not know (the domain's:
 * a linkifier's pattern must compile): the problem with its JSON path, or null. The domain lists
 * them (src/domain/state-rules.ts); whoever reads a state in passes them, so that the store
 * imports nothing above it.
 */
export type StateRule = (state: State) => string | null;

/** Where a --data snapshot keeps its log sequence number (read and removed by persist.ts). */
export const SNAPSHOT_SEQ_KEY = '_log_seq';

/** Names an embedded fixture may have (a file name in fixtures/, without `.json`). */
const FIXTURE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Where the server's default fixture may be swapped for another embedded one, by name. The test
 * suite sets it to `classic` (vitest.config.ts): its tests were written against that fixture's
 * IDs, while a user's default is the real development organization (docs/decisions/default-fixture-is-the-dev-org.md).
 */
export const DEFAULT_FIXTURE_ENV = 'TEAMCHAT_MOCK_DEFAULT_FIXTURE';

/** An embedded fixture by name: fixtures/<name>.json of the package. */
export function embeddedFixturePath(name: string): string {
  if (!FIXTURE_NAME.test(name)) throw new FixtureError(`'${name}' is not a fixture name`);
  const file = packagePath('fixtures', `${name}.json`);
  if (!existsSync(file)) throw new FixtureError(`the embedded fixture ${file} is missing`);
  return file;
}

/**
 * The fixture a server starts from when none is given: fixtures/default.json (the real
 * development organization), or the embedded fixture named by TEAMCHAT_MOCK_DEFAULT_FIXTURE.
 */
export function defaultFixturePath(): string {
  return embeddedFixturePath(process.env[DEFAULT_FIXTURE_ENV] || 'default');
}

/**
 * Checks a whole state against the schema of the State type, the rules between rows and the
 * given rules of the layers above; a missing collection becomes an empty one. Throws a
 * FixtureError naming the JSON path.
 */
export function checkState(data: unknown, source: string, rules: readonly StateRule[]): State {
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new FixtureError(`${source}: the top level must be a JSON object`);
  const state = data as Record<string, unknown>;
  for (const name of COLLECTIONS) if (state[name] === undefined) state[name] = [];
  // A data file's snapshot carries its log position beside the state (see persist.ts).
  const { [SNAPSHOT_SEQ_KEY]: _seq, ...rest } = state;
  let problem = schemaProblem(rest) ?? rowProblem(state);
  for (const rule of rules) problem ??= rule(state as unknown as State);
  if (problem) throw new FixtureError(`${source}: ${problem}`);
  return state as unknown as State;
}

/** A file's state, read once (tests read the default fixture without the domain's rules). */
export function readStateFile(file: string, rules: readonly StateRule[] = []): State {
  return stateSource(file, rules)();
}

/**
 * A fixture or data file kept as the bytes it was read as: each call parses a fresh State (checked
 * on the first call only: the same bytes give the same answer). A
 * world that may be reset needs a pristine copy beside its own; as bytes it takes half the
 * memory of a parsed copy, and parsing it costs less than copying one.
 */
export function stateSource(file: string, rules: readonly StateRule[]): () => State {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new FixtureError(
      `${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  const hash = createHash('sha256').update(bytes).digest('hex');
  // The bytes never change: once they passed the checks, later copies need only be parsed (a
  // sandbox or a reset made from them skips the schema, row and linkifier checks it passed).
  let checked = checkedByBuild(hash);
  return () => {
    let state: State;
    if (!checked) {
      state = parseState(bytes.toString('utf8'), file, rules);
      checked = true;
    } else {
      const data = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      for (const name of COLLECTIONS) if (data[name] === undefined) data[name] = [];
      state = data as unknown as State;
    }
    FILE_HASHES.set(state, hash);
    return state;
  };
}

/** Each state stateSource parsed, with the SHA-256 of the file's bytes (see stateFileHash). */
const FILE_HASHES = new WeakMap<State, string>();

/**
 * The SHA-256 of the file bytes `state` was parsed from (by stateSource), or null for a state
 * made otherwise. It names the state as it was read, not as it is: whoever relies on it checks
 * that nothing changed since (Store.loadedFileUnchanged).
 */
export function stateFileHash(state: State): string | null {
  return FILE_HASHES.get(state) ?? null;
}

// The bundled command line (scripts/build.mjs) carries the SHA-256 of the state files its build
// checked with the domain's rules, the shipped fixture: the same bytes, read by the same code,
// pass again, so that check (a third of the start-up) is skipped. Run from the sources, none is.
declare const BUILD_CHECKED_STATES: readonly string[] | undefined;

function checkedByBuild(hash: string): boolean {
  if (typeof BUILD_CHECKED_STATES === 'undefined') return false;
  return BUILD_CHECKED_STATES.includes(hash);
}

function parseState(text: string, file: string, rules: readonly StateRule[]): State {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new FixtureError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  return checkState(data, file, rules);
}

/** A deep copy, so that resets always start from the pristine fixture. */
export const cloneState = (state: State): State => structuredClone(state);
