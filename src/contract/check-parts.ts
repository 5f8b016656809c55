// The response check of an answer assembled from parts (fragments.ts): each part of an array is
// checked once, the first time an answer holding it passes; later answers are checked with only
// their new parts in that array, so the envelope and every new part are still checked each time.
// Sound only where an array's items are each checked on their own: the answer's schema is an
// object schema (allOf of object schemas) whose array property says nothing but `type` and
// `items` (no minItems, contains, prefixItems, ...), found once per operation by reading the
// description; any other answer is checked whole, as before.
// Maps of parts by key (matches_narrow's messages by ID) likewise, where each entry is checked on
// its own: the map's schema says nothing but `type: object`, `propertyNames` (the key alone) and
// `additionalProperties` (the value alone). An entry is left out only when the same part passed
// under the same key (key and value checked together, remembered with the part).
import type { ValidateFunction } from 'ajv';
import type { OpenApiDoc } from './load.js';
import { resolveRef } from './ajv.js';
import type { Operation } from './operations.js';
import { checkOf, isFragment, isMapOfParts, markPassed, markPassedAs, passed, passedAs } from './fragments.js';

const NONE: unknown[] = Object.freeze([]) as unknown as unknown[];
const NO_ENTRIES: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

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

/** What may be left out of the property: checked items of an array, checked entries of a map, or nothing. */
type Kind = 'items' | 'entries' | null;

/** The words a schema of each kind may hold, besides annotations (all of them checked per item or entry). */
const KIND_WORDS = {
  items: new Set(['type', 'items']),
  entries: new Set(['type', 'propertyNames', 'additionalProperties']),
};

/** Whether every schema the answer gives `prop` is an array of independently checked items, or a map of independently checked entries. */
function kindOf(doc: OpenApiDoc, parts: any[], prop: string): Kind {
  let found: Kind = null;
  for (const part of parts) {
    const sub = part.properties?.[prop];
    if (sub === undefined) continue;
    const s = resolveRef(doc, sub);
    if (!s || typeof s !== 'object') return null;
    const kind: Kind =
      s.type === 'array' && s.items !== undefined
        ? 'items'
        : s.type === 'object' && s.additionalProperties !== null && typeof s.additionalProperties === 'object'
          ? 'entries'
          : null;
    if (!kind || (found && found !== kind)) return null;
    for (const k of Object.keys(s)) if (!KIND_WORDS[kind].has(k) && !annotation(k)) return null;
    found = kind;
  }
  return found;
}

const eligible = new WeakMap<Operation, { parts: any[] | null; props: Map<string, Kind> }>();

function eligibleProp(doc: OpenApiDoc, op: Operation, prop: string): Kind {
  let e = eligible.get(op);
  if (!e) {
    const response = resolveRef(doc, op.spec.responses?.['200']);
    eligible.set(
      op,
      (e = { parts: objectParts(doc, response?.content?.['application/json']?.schema), props: new Map() }),
    );
  }
  if (!e.parts) return null;
  let kind = e.props.get(prop);
  if (kind === undefined) e.props.set(prop, (kind = kindOf(doc, e.parts, prop)));
  return kind;
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
  let freshEntries: Array<[object, object, string]> | null = null;
  for (const key of Object.keys(src)) {
    const value = src[key];
    if (value !== null && typeof value === 'object' && isMapOfParts(value)) {
      if (eligibleProp(doc, op, key) !== 'entries') continue;
      const check = checkOf(validate, key);
      // Usually every entry passed before, under the same key: the map is then checked empty.
      let unchecked = NO_ENTRIES;
      for (const k of Object.keys(value)) {
        const v = value[k];
        if (passedAs(v, check, k)) continue;
        if (unchecked === NO_ENTRIES) unchecked = {};
        unchecked[k] = v;
        if (isFragment(v)) (freshEntries ??= []).push([check, v, k]);
      }
      (skeleton ??= { ...src })[key] = unchecked;
      continue;
    }
    if (!Array.isArray(value) || !value.length || !isFragment(value[0]) || eligibleProp(doc, op, key) !== 'items')
      continue;
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
  if (freshEntries) for (const [check, part, key] of freshEntries) markPassedAs(part, check, key);
  return true;
}
