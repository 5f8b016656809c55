// Validates a whole state against the JSON schema generated from the State type
// (scripts/generate-state-schema.ts): the one check every way into a world goes through
// (fixture, --data file, PUT /__mock/state, scenario state patches). Row-to-row rules a schema
// cannot say (unique IDs and emails) are check-rows.ts's.
import type { ValidateFunction } from 'ajv';
import { stateSchema } from '../contract/generated/state-schema.js';
// Compiled when the schema is generated (ajv's standalone code): compiling it at start cost 0.3 s.
import { validate as compiledValidate } from '../contract/generated/state-validator.js';

const validate = compiledValidate as ValidateFunction;

/** The top-level arrays of the state: what may be left out of a file (it means no rows). */
export const COLLECTIONS: readonly string[] = Object.entries(stateSchema.definitions.State.properties)
  .filter(([, s]) => (s as { type?: string }).type === 'array')
  .map(([name]) => name);

/** The first place where `data` is not a State, as a JSON path and what is wrong there; null if none. */
export function schemaProblem(data: unknown): string | null {
  if (validate(data)) return null;
  const e = validate.errors![0];
  const path =
    '$' +
    e.instancePath
      .split('/')
      .slice(1)
      .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p.replace(/~1/g, '/').replace(/~0/g, '~')}`))
      .join('');
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return `${path}.${params.missingProperty} is missing`;
  if (e.keyword === 'additionalProperties') return `${path}.${params.additionalProperty} is not a field of the state`;
  return `${path} ${e.message}`;
}
