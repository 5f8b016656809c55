// Valid sample values generated from the description's schemas, and their wire form. The
// table-driven decoding tests and the fuzzer start from these and then break one thing at a time.
import { resolveRef } from '../../src/contract/ajv.js';
import type { OpenApiDoc } from '../../src/contract/load.js';
import type { ParamSpec } from '../../src/contract/operations.js';

export function sampleValue(doc: OpenApiDoc, schema: any, depth = 0): unknown {
  const s = resolveRef(doc, schema) ?? {};
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined && s.default !== null) return s.default;
  if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== null) ?? s.enum[0];
  if (s.oneOf || s.anyOf) return sampleValue(doc, (s.oneOf ?? s.anyOf)[0], depth + 1);
  if (s.allOf) return Object.assign({}, ...s.allOf.map((x: any) => sampleValue(doc, x, depth + 1)));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
      return Math.max(1, s.minimum ?? 1);
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'array': {
      if (depth > 4) return [];
      const n = s.minItems ?? 1;
      if (Array.isArray(s.prefixItems)) return s.prefixItems.map((x: any) => sampleValue(doc, x, depth + 1));
      return Array.from({ length: n }, () => sampleValue(doc, s.items ?? {}, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = sampleValue(doc, s.properties?.[key] ?? {}, depth + 1);
      return out;
    }
    default:
      return 'x';
  }
}

/** The text a client puts in the form field for a value of this parameter. */
export function wireValue(p: ParamSpec, value: unknown): string {
  if (typeof value === 'string' && (!p.json || p.rawStringFallback)) return value;
  return JSON.stringify(value);
}

/** The schema's primitive type, following refs and unions to their first branch. */
export function schemaType(doc: OpenApiDoc, schema: any): string | undefined {
  const s = resolveRef(doc, schema) ?? {};
  if (s.oneOf || s.anyOf) return undefined;
  return Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
}

/**
 * Values just past each limit the schema states (maxLength + 1, minimum - 1, maxItems + 1, a value
 * outside the enum...), built from a valid sample so that only the limit is wrong. Empty when the
 * schema states no limit. Unions are left alone: a value past one branch may fit another.
 */
export function limitBreakers(doc: OpenApiDoc, schema: any): unknown[] {
  const s = resolveRef(doc, schema) ?? {};
  if (s.oneOf || s.anyOf || s.const !== undefined) return [];
  const out: unknown[] = [];
  const type = schemaType(doc, s);
  if (Array.isArray(s.enum) && type === 'string')
    out.push('zzz-not-a-value', `${s.enum[0]} `, String(s.enum[0]).toUpperCase() + 'X');
  if (Array.isArray(s.enum) && type === 'integer')
    out.push(Math.max(...s.enum.filter((v: unknown) => typeof v === 'number')) + 1);
  if (type === 'string') {
    if (typeof s.maxLength === 'number') out.push('a'.repeat(s.maxLength + 1), '😀'.repeat(s.maxLength + 1));
    if (typeof s.minLength === 'number' && s.minLength > 0) out.push('a'.repeat(s.minLength - 1));
  }
  if (type === 'integer' || type === 'number') {
    if (typeof s.maximum === 'number') out.push(s.maximum + 1);
    if (typeof s.minimum === 'number') out.push(s.minimum - 1);
    if (type === 'integer') out.push(1.5, 2 ** 53, -(2 ** 53), 1e300);
  }
  if (type === 'array') {
    const item = Array.isArray(s.prefixItems) ? undefined : sampleValue(doc, s.items ?? {}, 1);
    if (typeof s.maxItems === 'number') out.push(Array.from({ length: s.maxItems + 1 }, () => item ?? 1));
    if (typeof s.minItems === 'number' && s.minItems > 0)
      out.push(Array.from({ length: s.minItems - 1 }, () => item ?? 1));
  }
  if (type === 'object' && Array.isArray(s.required) && s.required.length) {
    const whole = sampleValue(doc, s) as Record<string, unknown>;
    for (const key of s.required) {
      const { [key]: _dropped, ...rest } = whole;
      out.push(rest);
    }
  }
  return out;
}
