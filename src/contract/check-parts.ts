// The response check of an answer assembled from parts (fragments.ts): each part of an array is
// checked once, the first time an answer holding it passes; later answers are checked with only
// their new parts in that array, so the envelope and every new part are still checked each time.
// Sound only where an array's items are each checked on their own: the answer's schema is an
// object schema (allOf of object schemas) whose array property says nothing but `type` and
// `items` (no minItems, contains, prefixItems, ...), found once per operation by reading the
// description; any other answer is checked whole, as before.
import type { ValidateFunction } from 'ajv';
import type { OpenApiDoc } from './load.js';
import { resolveRef } from './ajv.js';
import type { Operation } from './operations.js';
import { checkOf, isFragment, markPassed, passed } from './fragments.js';

const NONE: unknown[] = Object.freeze([]) as unknown as unknown[];

const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'deprecated']);
const annotation = (k: string) => ANNOTATIONS.has(k) || k.startsWith('x-');
const OBJECT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'unevaluatedProperties',
  'allOf',
]);

/** The object schema's parts (through allOf), or null when it uses a keyword that could look into an array. */
function objectParts(doc: OpenApiDoc, schema: unknown, out: any[] = [], depth = 0): any[] | null {
  const s = resolveRef(doc, schema);
  if (!s || typeof s !== 'object' || depth > 8) return null;
  for (const k of Object.keys(s)) if (!OBJECT_KEYWORDS.has(k) && !annotation(k)) return null;
  if (s.additionalProperties !== undefined && typeof s.additionalProperties !== 'boolean') return null;
  out.push(s);
  for (const sub of s.allOf ?? []) if (!objectParts(doc, sub, out, depth + 1)) return null;
  return out;
}

/** Whether every schema the answer gives `prop` is an array of independently checked items. */
function itemsOnly(doc: OpenApiDoc, parts: any[], prop: string): boolean {
  let found = false;
  for (const part of parts) {
    const sub = part.properties?.[prop];
    if (sub === undefined) continue;
    const s = resolveRef(doc, sub);
    if (!s || typeof s !== 'object' || s.type !== 'array' || s.items === undefined) return false;
    for (const k of Object.keys(s)) if (k !== 'type' && k !== 'items' && !annotation(k)) return false;
    found = true;
  }
  return found;
}

const eligible = new WeakMap<Operation, { parts: any[] | null; props: Map<string, boolean> }>();

function eligibleProp(doc: OpenApiDoc, op: Operation, prop: string): boolean {
  let e = eligible.get(op);
  if (!e) {
    const response = resolveRef(doc, op.spec.responses?.['200']);
    eligible.set(
      op,
      (e = { parts: objectParts(doc, response?.content?.['application/json']?.schema), props: new Map() }),
    );
  }
  if (!e.parts) return false;
  let ok = e.props.get(prop);
  if (ok === undefined) e.props.set(prop, (ok = itemsOnly(doc, e.parts, prop)));
  return ok;
}

/**
 * True when `body` passes with the parts checked before left out of its arrays (and the new
 * parts are remembered as checked); false when it has no such parts or does not pass (the
 * caller then checks the whole body, for the problems at their real places).
 */
export function checkSkippingParts(doc: OpenApiDoc, op: Operation, validate: ValidateFunction, body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const src = body as Record<string, unknown>;
  let skeleton: Record<string, unknown> | null = null;
  let fresh: Array<[object, object[]]> | null = null;
  for (const key of Object.keys(src)) {
    const value = src[key];
    if (!Array.isArray(value) || !value.length || !isFragment(value[0]) || !eligibleProp(doc, op, key)) continue;
    const check = checkOf(validate, key);
    // Usually every item passed before: then nothing is copied but the answer's own object.
    let unchecked: unknown[] = NONE;
    for (let i = 0; i < value.length; i++) {
      if (passed(value[i], check)) continue;
      if (unchecked === NONE) unchecked = [];
      unchecked.push(value[i]);
    }
    if (unchecked !== NONE) (fresh ??= []).push([check, unchecked.filter(isFragment)]);
    (skeleton ??= { ...src })[key] = unchecked;
  }
  if (!skeleton || !validate(skeleton)) return false;
  if (fresh) for (const [check, parts] of fresh) for (const p of parts) markPassed(p, check);
  return true;
}
