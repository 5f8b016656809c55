// A quicker first look at answers whose schema is a closed object: `allOf` parts that only name
// properties (and which of them are required), with `unevaluatedProperties: false`, as the
// register answer's. ajv's validator for such a schema runs through every property the parts name
// (the register answer's ~280: a long, cold run of code on every register, whatever the answer
// holds); this looks only at the properties the answer holds, each with a validator compiled for
// that property's schema alone. It only ever says "valid": an answer it does not pass goes to the
// full validator, which decides and words the problems as before. Sound because, for this form,
// the full validator accepts exactly the objects whose every key some part names, whose every
// required key is there, and whose every value passes each part's schema for its key.
import type { ValidateFunction } from 'ajv';
import type { OpenApiDoc } from './load.js';

const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'deprecated']);
const annotation = (k: string) => ANNOTATIONS.has(k) || k.startsWith('x-');

interface ClosedObject {
  /** Each property's schemas (one per part naming it), as written in the description. */
  schemas: Map<string, unknown[]>;
  /** Every required name of every part, gated names left out (the full validator's rule). */
  required: string[];
}

/** The closed object a schema describes, or null when it has any other form. */
function closedObjectOf(
  doc: OpenApiDoc,
  schema: any,
  resolveRef: (doc: OpenApiDoc, value: unknown) => any,
  requiredOf: (part: any) => string[],
): ClosedObject | null {
  if (!schema || typeof schema !== 'object' || schema.unevaluatedProperties !== false || !Array.isArray(schema.allOf))
    return null;
  for (const k of Object.keys(schema))
    if (k !== 'allOf' && k !== 'unevaluatedProperties' && k !== 'type' && !annotation(k)) return null;
  if (schema.type !== undefined && schema.type !== 'object') return null;
  const out: ClosedObject = { schemas: new Map(), required: [] };
  const collect = (ref: unknown, depth: number): boolean => {
    const part = resolveRef(doc, ref);
    if (!part || typeof part !== 'object' || Array.isArray(part) || depth > 8) return false;
    for (const k of Object.keys(part))
      if (k !== 'type' && k !== 'properties' && k !== 'required' && k !== 'allOf' && !annotation(k)) return false;
    if (part.type !== undefined && part.type !== 'object') return false;
    if (part.properties !== undefined && (typeof part.properties !== 'object' || Array.isArray(part.properties)))
      return false;
    for (const [name, sub] of Object.entries(part.properties ?? {})) {
      const list = out.schemas.get(name);
      if (list) list.push(sub);
      else out.schemas.set(name, [sub]);
    }
    if (part.required !== undefined && !Array.isArray(part.required)) return false;
    out.required.push(...requiredOf(part));
    return (part.allOf ?? []).every((sub: unknown) => collect(sub, depth + 1));
  };
  return schema.allOf.every((part: unknown) => collect(part, 0)) ? out : null;
}

/**
 * A check that passes only answers the schema accepts (see the header), or null when the schema
 * is not a closed object. `compile` makes a validator of one property's schema (on first use).
 */
export function closedObjectCheck(
  doc: OpenApiDoc,
  schema: unknown,
  compile: (schema: unknown) => ValidateFunction,
  resolveRef: (doc: OpenApiDoc, value: unknown) => any,
  requiredOf: (part: any) => string[],
): ((data: unknown) => boolean) | null {
  const closed = closedObjectOf(doc, schema, resolveRef, requiredOf);
  if (!closed) return null;
  const validators = new Map<string, ValidateFunction[]>();
  const validatorsOf = (name: string): ValidateFunction[] | undefined => {
    let list = validators.get(name);
    if (!list) {
      const schemas = closed.schemas.get(name);
      if (!schemas) return undefined;
      validators.set(name, (list = schemas.map(compile)));
    }
    return list;
  };
  return (data) => {
    if (!data || typeof data !== 'object' || Array.isArray(data)) return false;
    const obj = data as Record<string, unknown>;
    for (const name of closed.required) if (obj[name] === undefined) return false;
    for (const key in obj) {
      const list = validatorsOf(key);
      if (!list) return false;
      const value = obj[key];
      if (value === undefined) continue;
      for (const v of list) if (!v(value)) return false;
    }
    return true;
  };
}
