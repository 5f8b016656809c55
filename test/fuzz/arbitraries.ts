// fast-check arbitraries built from the description: valid values for any parameter schema
// (integers biased to the fixture's IDs, so that requests get past "no such channel" into the
// views), and hostile wire values: wrong types, values past every limit, bad and deeply nested
// JSON, prototype keys, duplicate keys, very long strings, invalid UTF-8 and percent-encoding.
import fc from 'fast-check';
import { resolveRef } from '../../src/contract/ajv.js';
import type { OpenApiDoc } from '../../src/contract/load.js';
import type { ParamSpec } from '../../src/contract/operations.js';
import { limitBreakers, sampleValue, schemaType, wireValue } from '../helpers/samples.js';

/**
 * What a form field carries: text (UTF-8, percent-encoded when sent), raw bytes (possibly not
 * UTF-8) or text sent exactly as given (invalid percent-encoding such as `%zz`).
 */
export type Wire = string | { bytes: number[] } | { raw: string };

/** Names and words of the fixture, so that valid strings sometimes name something that exists. */
const FIXTURE_WORDS = [
  'Denmark',
  'core team',
  'Verona',
  'Wales',
  'hamlet@zulip.com',
  'iago@zulip.com',
  'greetings',
  '',
  'role:members',
  'moderation',
];

/** IDs of the fixture's rows (users 1-15, channels 1-9, groups 1-12, messages 1-30) and a bit past. */
const ids = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 16 }) },
  { weight: 1, arbitrary: fc.integer({ min: 17, max: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 ** 31 - 1 }) },
);

const text = (minLength: number, maxLength: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...FIXTURE_WORDS).filter((w) => w.length >= minLength && w.length <= maxLength),
    },
  );

/** Values the schema accepts. */
export function validArb(doc: OpenApiDoc, schema: any, depth = 0): fc.Arbitrary<unknown> {
  const s = resolveRef(doc, schema) ?? {};
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const branches = s.oneOf ?? s.anyOf;
  if (branches) return fc.oneof(...branches.map((b: any) => validArb(doc, b, depth + 1)));
  if (s.allOf || depth > 4) return fc.constant(sampleValue(doc, s, depth));
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((t) => validArb(doc, { ...s, type: t }, depth + 1)));
  const min = typeof s.minimum === 'number' ? s.minimum : -(2 ** 31);
  const max = typeof s.maximum === 'number' ? s.maximum : 2 ** 31 - 1;
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'integer':
      return fc.oneof(
        { weight: 6, arbitrary: ids.filter((n) => n >= min && n <= max) },
        { weight: 1, arbitrary: fc.integer({ min, max }) },
        { weight: 1, arbitrary: fc.constantFrom(min, max) },
      );
    case 'number':
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'string':
      return text(s.minLength ?? 0, Math.min(s.maxLength ?? 40, 200));
    case 'array': {
      if (Array.isArray(s.prefixItems)) return fc.tuple(...s.prefixItems.map((x: any) => validArb(doc, x, depth + 1)));
      return fc.array(validArb(doc, s.items ?? {}, depth + 1), {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 4, 4),
      });
    }
    case 'object': {
      const props = Object.entries<any>(s.properties ?? {});
      if (!props.length)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
      const model = Object.fromEntries(props.map(([k, v]) => [k, validArb(doc, v, depth + 1)]));
      return fc.record(model, { requiredKeys: (s.required ?? []).filter((k: string) => k in model) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const deepArrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObjects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

/** Hostile text that is no kind of valid value: bad JSON, deep nesting, huge strings, control bytes. */
const HOSTILE: Wire[] = [
  '',
  ' ',
  '{',
  '[1,',
  '{"a":}',
  "{'a':1}",
  'undefined',
  'NaN',
  '-Infinity',
  '1e400',
  '-0',
  '0x10',
  ' 7 ',
  '+5',
  '1_000',
  '\u0000',
  'a\u0000b',
  '\r\n',
  '%',
  'null',
  'true',
  '[]',
  '{}',
  '[null]',
  '{"":null}',
  '"',
  '\\',
  '\ud800',
  '\udfff\ud800',
  deepArrays(3000),
  deepObjects(3000),
  deepArrays(200_000),
  `[${'1,'.repeat(50_000)}1]`,
  'a'.repeat(100_000),
  '😀'.repeat(30_000),
  'e\u0301'.repeat(20_000),
  '\u202e\u200b\ufeff',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"prototype":{"polluted":true}}',
  '[{"__proto__":{"polluted":true}}]',
  '{"__proto__":null}',
  '{"toString":1,"hasOwnProperty":2,"valueOf":3}',
  '{"a":1,"a":2}',
  '[1,1,1]',
  { bytes: [0xff, 0xfe, 0xfd] },
  { bytes: [0xc3, 0x28] },
  { bytes: [0xed, 0xa0, 0x80] },
  { bytes: [0xe0, 0xa4] },
  { bytes: [0x80] },
  { bytes: [0xf4, 0x90, 0x80, 0x80] },
  { bytes: [0x22, 0xff, 0x22] },
  { raw: '%zz' },
  { raw: '%' },
  { raw: '%4' },
  { raw: '%u0041' },
  { raw: '%%' },
  { raw: '%C3%28' },
  { raw: '%ED%A0%80' },
  { raw: '%2' },
];

/** A JSON text with a key duplicated (the later one wins in JSON.parse). */
function duplicateKey(value: unknown): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const [first] = Object.keys(value);
  if (first === undefined) return null;
  const body = JSON.stringify(value).slice(1, -1);
  return `{${JSON.stringify(first)}:"duplicate",${body}}`;
}

/** A valid value with prototype keys added to every object in it. */
function withProtoKeys(value: unknown): string | null {
  const text = JSON.stringify(value);
  if (!text || !text.includes('{')) return null;
  return text.replace(/\{/g, '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},');
}

/** Wire values that should be refused (or at least must not hurt): wrong types and everything above. */
export function nastyWireArb(doc: OpenApiDoc, p: ParamSpec): fc.Arbitrary<Wire> {
  const type = schemaType(doc, p.schema);
  const sample = sampleValue(doc, p.schema);
  const wrongTypes: Wire[] = [];
  if (type !== 'string') wrongTypes.push('abc', '"abc"');
  if (type !== 'integer' && type !== 'number') wrongTypes.push('5', '1.5');
  if (type !== 'boolean') wrongTypes.push('true', 'maybe');
  if (type !== 'array') wrongTypes.push('[1,2]', '["x"]');
  if (type !== 'object') wrongTypes.push('{"k":"v"}');
  const shaped = [duplicateKey(sample), withProtoKeys(sample), p.json ? JSON.stringify([sample, sample]) : null].filter(
    (x): x is string => x !== null,
  );
  const breakers = limitBreakers(doc, p.schema).map((v) => wireValue(p, v));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
    { weight: 2, arbitrary: fc.constantFrom(...wrongTypes, ...shaped) },
    { weight: breakers.length ? 3 : 0, arbitrary: breakers.length ? fc.constantFrom(...breakers) : fc.constant('') },
    { weight: 1, arbitrary: fc.string({ maxLength: 30, unit: 'binary' }) },
    { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
  );
}

export function validWireArb(doc: OpenApiDoc, p: ParamSpec): fc.Arbitrary<Wire> {
  return validArb(doc, p.schema).map((v) => wireValue(p, v));
}

/** Values for Authorization: valid ones are chosen elsewhere; these are all wrong in some way. */
export const badAuthorizationArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    'Basic',
    'Basic ',
    'Basic =',
    'Basic !!!',
    'Bearer abc',
    'basic aGFtbGV0',
    'Basic aGFtbGV0QHp1bGlwLmNvbQ==',
    `Basic ${Buffer.from('hamlet@zulip.com:').toString('base64')}`,
    `Basic ${Buffer.from(':').toString('base64')}`,
    `Basic ${Buffer.from('hamlet@zulip.com:wrong-key').toString('base64')}`,
    `Basic ${Buffer.from('nobody@nowhere:x').toString('base64')}`,
    `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0x80]).toString('base64')}`,
    `Basic ${'A'.repeat(6000)}`,
    'Basic a b c',
    'Digest x=y',
  ),
  fc.string({ maxLength: 60 }).map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
  fc.string({ maxLength: 40 }).filter((s) => /^[\x21-\x7e ]*$/.test(s)),
);
