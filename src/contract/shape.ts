// Response fields by feature level: a property of a success response marked x-feature-level N is
// left out below N, one marked x-removed-at N is left out from N on. The gates are found once per
// operation by walking its success schema; applying them copies only the objects on a gated path,
// never the rows the view may have handed over from the store.
import type { OpenApiDoc } from './load.js';
import { resolveRef } from './ajv.js';
import { levelRange } from './levels.js';
import { isFragment, shapedFragment } from './fragments.js';

export interface ShapeNode {
  gates: Array<{ prop: string; addedAt: number; removedAt: number }>;
  props: Map<string, ShapeNode>;
  items: ShapeNode | null;
  /** additionalProperties schema: every value of a map-like object. */
  values: ShapeNode | null;
  /**
   * Per level asked (at most MAX_LEVELS_KEPT of them), the gates that remove their property at it
   * and the children that may change something at it: an answer is walked along those only
   * (POST /register's schema has 143 gates, 43 of which remove at the newest level).
   */
  activeAt?: Map<number, { gates: ShapeNode['gates']; children: Array<[string, ShapeNode]> }>;
  /** Levels [from, to) at which no gate of this subtree removes anything: the value passes as it is. */
  unchangedFrom?: number;
  unchangedTo?: number;
}

function collect(doc: OpenApiDoc, schema: any, depth: number, seen: Set<any>): ShapeNode | null {
  const s = resolveRef(doc, schema);
  if (!s || typeof s !== 'object' || depth > 8 || seen.has(s)) return null;
  seen = new Set(seen).add(s);
  const node: ShapeNode = { gates: [], props: new Map(), items: null, values: null };
  // A value of several forms (anyOf / oneOf, e.g. one per range of levels) is shaped by the gates
  // of all of them: a field only one form has is simply absent from the others.
  const parts = [
    s,
    ...[...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].map((x: any) => resolveRef(doc, x)),
  ];
  for (const part of parts) {
    for (const [prop, sub] of Object.entries<any>(part?.properties ?? {})) {
      const range = levelRange(sub, resolveRef(doc, sub));
      if (range.addedAt > 0 || range.removedAt !== Number.POSITIVE_INFINITY) node.gates.push({ prop, ...range });
      const child = collect(doc, sub, depth + 1, seen);
      if (child) node.props.set(prop, child);
    }
    if (part?.items) node.items = collect(doc, part.items, depth + 1, seen) ?? node.items;
    if (part?.additionalProperties && typeof part.additionalProperties === 'object') {
      node.values = collect(doc, part.additionalProperties, depth + 1, seen) ?? node.values;
    }
  }
  const empty = !node.gates.length && !node.props.size && !node.items && !node.values;
  if (empty) return null;
  // Most requests ask at the newest level, where nothing is removed: no need to walk the answer.
  node.unchangedFrom = 0;
  node.unchangedTo = Number.POSITIVE_INFINITY;
  for (const g of node.gates) narrow(node, g.addedAt, g.removedAt);
  for (const child of [...node.props.values(), node.items, node.values])
    if (child) narrow(node, child.unchangedFrom!, child.unchangedTo!);
  return node;
}

function narrow(node: ShapeNode, from: number, to: number): void {
  node.unchangedFrom = Math.max(node.unchangedFrom!, from);
  node.unchangedTo = Math.min(node.unchangedTo!, to);
}

export function shapeOf(doc: OpenApiDoc, successSchema: any): ShapeNode | null {
  return successSchema ? collect(doc, successSchema, 0, new Set()) : null;
}

/** `value` as a server at `level` would send it. */
export function applyShape(value: unknown, node: ShapeNode | null, level: number): unknown {
  if (!node || value === null || typeof value !== 'object') return value;
  if (node.unchangedFrom !== undefined && level >= node.unchangedFrom && level < node.unchangedTo!) return value;
  // A part that never changes (fragments.ts) is shaped once per level.
  // (shapeNow itself is passed: a closure made per part and request was a third of a large read's garbage)
  if (isFragment(value)) return shapedFragment(value, node, level, shapeNow);
  return shapeNow(value, node, level);
}

const MAX_LEVELS_KEPT = 64;

/** The gates and children of `node` that can change an answer at `level` (see ShapeNode.activeAt). */
function activeAt(node: ShapeNode, level: number): { gates: ShapeNode['gates']; children: Array<[string, ShapeNode]> } {
  node.activeAt ??= new Map();
  let active = node.activeAt.get(level);
  if (!active) {
    active = {
      gates: node.gates.filter((g) => level < g.addedAt || level >= g.removedAt),
      // A child unchanged at the level gives its value back as it is (applyShape): skipped.
      children: [...node.props].filter(([, c]) => !(level >= c.unchangedFrom! && level < c.unchangedTo!)),
    };
    if (node.activeAt.size < MAX_LEVELS_KEPT) node.activeAt.set(level, active);
  }
  return active;
}

function shapeNow(value: object, node: ShapeNode, level: number): object {
  if (Array.isArray(value)) {
    if (!node.items) return value;
    // The same array when no item changes (kept parts at most levels): nothing to copy above it either.
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const shaped = applyShape(value[i], node.items, level);
      if (out) out.push(shaped);
      else if (shaped !== value[i]) (out = value.slice(0, i)).push(shaped);
    }
    return out ?? value;
  }
  const src = value as Record<string, unknown>;
  // The copy is made at the first change (no closure or entry arrays made on the way).
  let out: Record<string, unknown> | null = null;
  const { gates, children } = activeAt(node, level);
  for (let i = 0; i < gates.length; i++) if (gates[i].prop in src) delete (out ??= { ...src })[gates[i].prop];
  for (let i = 0; i < children.length; i++) {
    const [prop, child] = children[i];
    if (!(prop in src) || (out && !(prop in out))) continue;
    const shaped = applyShape(src[prop], child, level);
    if (shaped !== src[prop]) (out ??= { ...src })[prop] = shaped;
  }
  if (node.values) {
    for (const k in src) {
      if (!Object.hasOwn(src, k) || node.props.has(k)) continue;
      const v = src[k];
      const shaped = applyShape(v, node.values, level);
      if (shaped !== v) (out ??= { ...src })[k] = shaped;
    }
  }
  return out ?? src;
}

const fieldRanges = new WeakMap<OpenApiDoc, Map<string, { addedAt: number; removedAt: number }>>();

/**
 * Whether `schema.field` (a component schema's property) exists at `level`, for views that must
 * compute a field only old servers sent (the level itself stays in the description).
 */
export function fieldExistsAt(doc: OpenApiDoc, schema: string, field: string, level: number): boolean {
  let cache = fieldRanges.get(doc);
  if (!cache) fieldRanges.set(doc, (cache = new Map()));
  const key = `${schema}.${field}`;
  let range = cache.get(key);
  if (!range) {
    const prop = resolveRef(doc, doc.components.schemas?.[schema])?.properties?.[field];
    if (!prop) throw new Error(`no property ${key} in the description`);
    cache.set(key, (range = levelRange(prop, resolveRef(doc, prop))));
  }
  return range.addedAt <= level && level < range.removedAt;
}

const variantRanges = new WeakMap<
  OpenApiDoc,
  Map<string, Array<{ title: string | undefined; addedAt: number; removedAt: number }>>
>();

/**
 * The title of the form (an anyOf / oneOf member) that `schema.field` takes at `level`, for views
 * whose value changed form at a level (e.g. channel objects that became IDs); undefined when the
 * field has no such forms or none exists at the level.
 */
export function variantAt(doc: OpenApiDoc, schema: string, field: string, level: number): string | undefined {
  let cache = variantRanges.get(doc);
  if (!cache) variantRanges.set(doc, (cache = new Map()));
  const key = `${schema}.${field}`;
  let variants = cache.get(key);
  if (!variants) {
    const prop = resolveRef(doc, resolveRef(doc, doc.components.schemas?.[schema])?.properties?.[field]);
    if (!prop) throw new Error(`no property ${key} in the description`);
    variants = [...(prop.anyOf ?? []), ...(prop.oneOf ?? [])].map((v: any) => ({
      title: resolveRef(doc, v)?.title,
      ...levelRange(v, resolveRef(doc, v)),
    }));
    cache.set(key, variants);
  }
  return variants.find((v) => v.addedAt <= level && level < v.removedAt)?.title;
}
