// Table-driven over the whole description: for every operation and parameter, a missing required
// value, a value of the wrong type, bad JSON, a value outside an enum and one past maxLength are
// each refused with the real server's code and wording, and a valid set is accepted.
import { describe, expect, it } from 'vitest';
import { sharedContract } from '../../src/server.js';
import { decodeParams } from '../../src/contract/decode.js';
import { ApiError } from '../../src/errors.js';
import { resolveRef } from '../../src/contract/ajv.js';
import type { Operation, ParamSpec } from '../../src/contract/operations.js';
import { sampleValue, schemaType, wireValue } from '../helpers/samples.js';

const contract = sharedContract();
const doc = contract.doc;

function validRaw(op: Operation): { path: Record<string, string>; body: Record<string, string> } {
  const path: Record<string, string> = {};
  const body: Record<string, string> = {};
  for (const p of op.params) {
    if (!p.required) continue;
    const v = wireValue(p, sampleValue(doc, p.schema));
    if (p.in === 'path') path[p.name] = v;
    else body[p.name] = v;
  }
  return { path, body };
}

/** A feature level at which the parameter exists (removed ones are tested just before removal). */
const levelFor = (p?: ParamSpec) => (p && Number.isFinite(p.removedAt) ? p.removedAt - 1 : Number.MAX_SAFE_INTEGER);

function decodeError(
  op: Operation,
  path: Record<string, string>,
  body: Record<string, string>,
  p?: ParamSpec,
): ApiError | null {
  try {
    decodeParams(op, path, body, {}, levelFor(p));
    return null;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

interface Case {
  op: Operation;
  p: ParamSpec;
  raw: string;
  msg: string;
}

function casesFor(op: Operation): Case[] {
  const out: Case[] = [];
  for (const p of op.params) {
    if (p.in === 'path') continue;
    const s = resolveRef(doc, p.schema) ?? {};
    const type = schemaType(doc, p.schema);
    if (type === 'integer') out.push({ op, p, raw: p.json ? '"abc"' : 'abc', msg: `${p.name} is not an integer` });
    if (type === 'boolean') out.push({ op, p, raw: p.json ? '"maybe"' : 'maybe', msg: `${p.name} is not a boolean` });
    if (type === 'array' && p.json) out.push({ op, p, raw: '5', msg: `${p.name} is not a list` });
    if (type === 'object' && p.json) out.push({ op, p, raw: '[]', msg: `${p.name} is not a dict` });
    if (p.json && !p.rawStringFallback) out.push({ op, p, raw: '{not json', msg: `${p.name} is not valid JSON` });
    // A parameter's own wording (x-invalid-message) replaces the generic one.
    if (Array.isArray(s.enum) && type === 'string')
      out.push({
        op,
        p,
        raw: p.json ? '"zzz-not-a-value"' : 'zzz-not-a-value',
        msg:
          typeof s['x-invalid-message'] === 'string'
            ? s['x-invalid-message'].replace('{value}', 'zzz-not-a-value')
            : `Invalid ${p.name}`,
      });
    if (typeof s.maxLength === 'number' && type === 'string') {
      out.push({
        op,
        p,
        raw: 'a'.repeat(s.maxLength + 1),
        // (its own wording too, where it has one: jitsi_server_url's is one error for every refusal)
        msg:
          typeof s['x-invalid-message'] === 'string'
            ? s['x-invalid-message'].replace('{value}', 'a'.repeat(s.maxLength + 1))
            : `${p.name} is too long (limit: ${s.maxLength} characters)`,
      });
    }
    if (type === 'array' && p.json && schemaType(doc, resolveRef(doc, s.items) ?? {}) === 'integer') {
      out.push({ op, p, raw: '["x"]', msg: `${p.name}[0] is not an integer` });
    }
  }
  return out;
}

describe('decoding, over every operation of the description', () => {
  it('accepts the generated valid parameters of every operation', () => {
    for (const op of contract.operations) {
      const { path, body } = validRaw(op);
      const err = decodeError(op, path, body);
      expect(err?.message ?? null, op.id).toBeNull();
    }
  });

  const required = contract.operations.flatMap((op) =>
    op.params.filter((p) => p.required && p.in !== 'path').map((p) => ({ op, p })),
  );
  it.each(required.map(({ op, p }) => [op.id, p.name, op, p] as const))(
    '%s without %s: REQUEST_VARIABLE_MISSING',
    (_id, name, op, p) => {
      const { path, body } = validRaw(op);
      delete body[name];
      // At a level the parameter is required at: removed ones, and ones required only before some
      // level (x-required-until), just below it.
      const err = decodeError(op, path, body, { ...p, removedAt: Math.min(p.removedAt, p.requiredUntil) });
      expect(err).not.toBeNull();
      // The first missing parameter in description order is the one reported.
      expect(err!.code).toBe('REQUEST_VARIABLE_MISSING');
      expect(err!.status).toBe(400);
      expect(err!.message).toBe(`Missing '${name}' argument`);
      expect(err!.extra).toEqual({ var_name: name });
    },
  );

  const cases = contract.operations.flatMap(casesFor);
  it.each(cases.map((c) => [c.op.id, c.p.name, c.raw.slice(0, 20), c] as const))(
    '%s %s=%s is refused',
    (_id, _name, _raw, c) => {
      const { path, body } = validRaw(c.op);
      body[c.p.name] = c.raw;
      const err = decodeError(c.op, path, body, c.p);
      expect(err, `${c.op.id} ${c.p.name}=${c.raw.slice(0, 30)}`).not.toBeNull();
      expect(err!.code).toBe('BAD_REQUEST');
      expect(err!.status).toBe(400);
      expect(err!.message).toBe(c.msg);
    },
  );

  it('covers a real number of rules', () => {
    expect(required.length).toBeGreaterThan(20);
    expect(cases.length).toBeGreaterThan(100);
  });
});
