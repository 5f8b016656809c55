// Reads a fixture or data file into a State, with errors that name the file and the problem.
import { readFileSync, existsSync } from 'node:fs';
import { packagePath } from '../package-root.js';
import type { State } from './state.js';
import { rowProblem } from './check-rows.js';

const collections: Array<keyof State> = [
  'users', 'streams', 'subscriptions', 'user_groups', 'channel_folders', 'linkifiers', 'realm_emoji', 'messages',
  'user_topics', 'scheduled_messages', 'reminders', 'saved_snippets', 'drafts', 'push_devices', 'sent_push_notifications',
  'former_subscriptions', 'attachments',
];

export class FixtureError extends Error {}

/** The fixture shipped with the package (fixtures/default.json). */
export function defaultFixturePath(): string {
  const file = packagePath('fixtures', 'default.json');
  if (!existsSync(file)) throw new FixtureError(`the embedded fixture ${file} is missing`);
  return file;
}

/** Checks the top-level shape; a missing collection becomes an empty one. */
export function checkState(data: unknown, source: string): State {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new FixtureError(`${source}: the top level must be a JSON object`);
  const state = data as Record<string, unknown>;
  if (!state.realm || typeof state.realm !== 'object') throw new FixtureError(`${source}: "realm" must be an object`);
  for (const name of collections) {
    if (state[name] === undefined) state[name] = [];
    else if (!Array.isArray(state[name])) throw new FixtureError(`${source}: "${name}" must be an array`);
  }
  const problem = rowProblem(state);
  if (problem) throw new FixtureError(`${source}: ${problem}`);
  return state as unknown as State;
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
