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
    case 'integer': return Math.max(1, s.minimum ?? 1);
    case 'number': return Math.max(1, s.minimum ?? 1);
    case 'boolean': return true;
    case 'string': return 'x'.repeat(Math.max(1, s.minLength ?? 1));
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
    default: return 'x';
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
