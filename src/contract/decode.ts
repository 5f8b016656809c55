// Decodes a request's raw string values into typed parameters as the real server does: body first,
// then the query string (clients send PATCH and DELETE parameters either way), JSON fields parsed
// from their text, and each value checked by the validator compiled from the description. The
// first problem found, in the description's parameter order, is the one reported.
import { ApiError, badRequest, missingArgument } from '../errors.js';
import type { Operation, ParamSpec } from './operations.js';
import { describeProblem } from './problems.js';

export type RawValues = Record<string, unknown>;

export interface Decoded {
  params: Record<string, unknown>;
  /** Request keys the operation does not take, sorted (ignored_parameters_unsupported). */
  ignored: string[];
}

/**
 * JSON nested deeper than this is refused: nothing in the API nests half as deep, and deeper
 * values overflow the stack of the code that walks them (validators, state patches, the journal).
 */
export const MAX_JSON_DEPTH = 100;

/** Whether `value` nests objects and arrays more than `limit` levels deep (without recursing). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  // Two parallel stacks and for-in: no pair or values array made per object (every JSON parameter passes here).
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length) {
    const v = values.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (depth > limit) return true;
    // An array by its indices: for-in made a key text per element (a list of 100 IDs cost 9 µs).
    // Decoded arrays (JSON, forms) have no other own enumerable keys; holes are undefined, skipped.
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        if (child && typeof child === 'object') {
          values.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const k in v) {
      const child = v[k];
      if (child && typeof child === 'object' && Object.hasOwn(v, k)) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** A repeated key arrives as an array; like the real server, the last value wins. */
const last = (v: unknown): unknown => (Array.isArray(v) ? v[v.length - 1] : v);

function decodePrimitive(p: ParamSpec, raw: string): unknown {
  switch (p.primitive) {
    case 'integer':
      if (/^-?\d+$/.test(raw.trim())) return Number(raw);
      throw badRequest(`${p.name} is not an integer`);
    case 'number':
      if (raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
      throw badRequest(`${p.name} is not a number`);
    case 'boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw badRequest(`${p.name} is not a boolean`);
    case 'string':
      return raw;
    default:
      // No declared primitive: accept JSON when it is JSON, the text otherwise.
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
  }
}

/** What JSON text can start with (after white space): a value that starts otherwise is not JSON. */
const JSON_START = /^[\s]*[[{"\-0-9tfn]/;

function decodeJson(p: ParamSpec, raw: string): unknown {
  // Plain text (`to=Denmark`) needs no failed parse: a thrown SyntaxError costs more than the request.
  if (p.rawStringFallback && !JSON_START.test(raw)) return raw;
  try {
    return JSON.parse(raw);
  } catch {
    if (p.rawStringFallback) return raw;
    throw badRequest(`${p.name} is not valid JSON`);
  }
}

function decodeValue(p: ParamSpec, rawValue: unknown): unknown {
  if (typeof rawValue !== 'string') return rawValue;
  return p.json ? decodeJson(p, rawValue) : decodePrimitive(p, rawValue);
}

/** Whether `op` takes a parameter called `name` at `level`. */
function takes(op: Operation, name: string, level: number): boolean {
  const p = op.paramsByName.get(name);
  return p !== undefined && p.addedAt <= level && level < p.removedAt;
}

const NOTHING_IGNORED: string[] = [];

/** Parameters that must come with others (dependentRequired): the first one missing is named. */
function checkTogether(rules: Record<string, string[]>, params: Record<string, unknown>): void {
  // for-in, not Object.entries: no array of pairs made on every request of the operation.
  for (const given in rules) {
    if (params[given] === undefined) continue;
    for (const name of rules[given]) if (params[name] === undefined) throw badRequest(`Missing ${name}`);
  }
}

/**
 * A copy of a default from the description: JSON values (lists, plain objects, scalars) copied
 * directly (structuredClone cost 1.4 µs for an empty list, on every register); anything else,
 * or an object with a key plain assignment would not copy, through structuredClone.
 */
function copyOfDefault(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyOfDefault);
  if (Object.getPrototypeOf(value) !== Object.prototype || Object.hasOwn(value, '__proto__'))
    return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyOfDefault((value as Record<string, unknown>)[key]);
  return out;
}

/** Decodes the parameters `op` takes at feature `level`; the others count as unsupported keys. */
export function decodeParams(
  op: Operation,
  pathValues: RawValues,
  body: RawValues,
  query: RawValues,
  level = Number.MAX_SAFE_INTEGER,
): Decoded {
  const params: Record<string, unknown> = {};
  for (const p of op.params) {
    if (p.addedAt > level || level >= p.removedAt) continue;
    let raw: unknown;
    if (p.in === 'path') raw = pathValues[p.name];
    else raw = last(Object.hasOwn(body, p.name) ? body[p.name] : query[p.name]);
    if (raw === undefined) {
      if (p.required && level < p.requiredUntil) throw missingArgument(p.name);
      // A default object is copied: views may keep or change what they are given.
      if (p.default !== undefined) params[p.name] = copyOfDefault(p.default);
      continue;
    }
    const value = decodeValue(p, raw);
    if (typeof value === 'object' && value !== null && nestedDeeperThan(value, MAX_JSON_DEPTH))
      throw badRequest(`${p.name} is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`);
    if (!p.validate(value)) {
      // A parameter may give the real server's own wording for a refused value (x-invalid-message);
      // a parameter of the wrong type itself keeps the generic wording ("... is not an integer"), as there.
      const own: unknown = p.schema?.['x-invalid-message'];
      const errors = p.validate.errors ?? [];
      const wrongType = errors.length > 0 && errors.every((e) => e.keyword === 'type' && e.instancePath === '');
      throw new ApiError(
        'BAD_REQUEST',
        typeof own === 'string' && !wrongType ? own.replace('{value}', String(value)) : describeProblem(p.name, errors),
      );
    }
    // An enum value newer than the requested level is as unknown as any invalid one.
    if (p.enumLevels && typeof value === 'string' && (p.enumLevels[value] ?? 0) > level)
      throw badRequest(`Invalid ${p.name}`);
    // So is one the server stopped taking (export_type's integers from FL 449).
    if (p.enumRemovedAt && level >= (p.enumRemovedAt[String(value)] ?? Number.POSITIVE_INFINITY))
      throw badRequest(`Invalid ${p.name}`);
    params[p.name] = value;
  }
  if (op.dependentRequired) checkTogether(op.dependentRequired, params);
  let ignored: Set<string> | null = null;
  for (const k in body) if (!takes(op, k, level)) (ignored ??= new Set()).add(k);
  for (const k in query) if (!takes(op, k, level)) (ignored ??= new Set()).add(k);
  return { params, ignored: ignored ? [...ignored].sort() : NOTHING_IGNORED };
}
