// Builds fuzzed API requests from the description: an operation, a caller (a fixture user of any
// role, or a broken Authorization header), its parameters (valid, missing, or one or all of them
// hostile, sometimes repeated) plus unknown and prototype-named keys, encoded as a form, multipart,
// query string or a JSON body the API does not take.
import fc from 'fast-check';
import type { OpenApiDoc } from '../../src/contract/load.js';
import type { Operation, ParamSpec } from '../../src/contract/operations.js';
import { badAuthorizationArb, nastyWireArb, validWireArb, type Wire } from './arbitraries.js';
import type { RawRequest } from './raw-http.js';

/** One of each role, a bot, and (rarely) the deactivated ariel. */
export const FUZZ_USERS = ['desdemona', 'iago', 'shiva', 'hamlet', 'othello', 'polonius', 'hamlet-bot'] as const;

type Auth = { user: string } | { header: string } | null;
type Encoding = 'form' | 'multipart' | 'query' | 'json';

export interface Plan {
  op: Operation;
  method: string;
  auth: Auth;
  params: Array<{ p: ParamSpec; wire: Wire; repeat: Wire | null }>;
  extra: Array<[string, Wire]>;
  encoding: Encoding;
  featureLevel: string | null;
}

const EXTRA_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'a[b]',
  'x.y',
  '',
  ' ',
  'ü',
  'client',
];

const authArb: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 18, arbitrary: fc.constantFrom(...FUZZ_USERS).map((user) => ({ user })) },
  { weight: 1, arbitrary: fc.constant({ user: 'ariel' }) },
  { weight: 1, arbitrary: badAuthorizationArb.map((header) => ({ header })) },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** How one request treats its parameters: all valid, one thing broken, or anything goes. */
type Mode = 'valid' | 'one-bad' | 'chaos';

function paramsArb(doc: OpenApiDoc, op: Operation, mode: Mode): fc.Arbitrary<Plan['params']> {
  // Optional parameters are sent about a third of the time, required ones always.
  const present = (p: ParamSpec) => (p.required || p.in === 'path' ? fc.constant(true) : fc.nat(2).map((n) => n === 0));
  const perParam = op.params.map((p) => {
    const valid = validWireArb(doc, p);
    const nasty = nastyWireArb(doc, p);
    const wire = mode === 'chaos' ? fc.oneof(valid, nasty) : valid;
    const repeat = mode === 'chaos' ? fc.option(fc.oneof(valid, nasty), { freq: 4 }) : fc.constant(null);
    return fc
      .record({ keep: present(p), wire, repeat })
      .map(({ keep, wire: w, repeat: r }) => (keep ? { p, wire: w, repeat: r } : null));
  });
  const all = fc.tuple(...perParam).map((xs) => xs.filter((x): x is NonNullable<typeof x> => x !== null));
  if (mode !== 'one-bad' || !op.params.length) return all;
  // Break exactly one parameter: drop it (a missing required one) or give it a hostile value.
  return fc.tuple(all, fc.nat(op.params.length - 1), fc.boolean()).chain(([xs, i, drop]) => {
    const p = op.params[i];
    const rest = xs.filter((x) => x.p !== p);
    if (drop && p.in !== 'path') return fc.constant(rest);
    return nastyWireArb(doc, p).map((wire) => [...rest, { p, wire, repeat: null }]);
  });
}

export function planArb(doc: OpenApiDoc, ops: Operation[]): fc.Arbitrary<Plan> {
  return fc.constantFrom(...ops).chain((op) => {
    const level = Number.isFinite(op.removedAt)
      ? fc.constant(String(op.removedAt - 1))
      : fc.oneof(
          { weight: 12, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.constantFrom('0', '54', '200', String(op.addedAt), 'abc', '-1', '99999', ' 496') },
        );
    return fc
      .record({
        op: fc.constant(op),
        method: fc.oneof(
          { weight: 15, arbitrary: fc.constant(op.method.toUpperCase()) },
          { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
        ),
        auth: op.authenticated ? authArb : fc.oneof(fc.constant(null), authArb),
        params: fc
          .constantFrom<Mode>('valid', 'valid', 'one-bad', 'one-bad', 'one-bad', 'chaos')
          .chain((mode) => paramsArb(doc, op, mode)),
        extra: fc.array(
          fc.tuple(fc.constantFrom(...EXTRA_KEYS), fc.constantFrom<Wire>('1', '{"polluted":true}', 'x')),
          { maxLength: 2 },
        ),
        encoding: fc.constantFrom<Encoding>('form', 'form', 'form', 'form', 'multipart', 'query', 'json'),
        featureLevel: level,
      })
      .map(withSummary);
  });
}

const short = (w: Wire) =>
  typeof w === 'string' ? JSON.stringify(w.length > 60 ? `${w.slice(0, 60)}...(${w.length})` : w) : JSON.stringify(w);

/** Counterexamples print as the request they stand for, not as the operation's whole record. */
function withSummary(plan: Plan): Plan {
  const params = plan.params.map(
    ({ p, wire, repeat }) => `${p.name}=${short(wire)}${repeat !== null ? ` (after ${short(repeat)})` : ''}`,
  );
  const who =
    plan.auth === null
      ? 'nobody'
      : 'user' in plan.auth
        ? plan.auth.user
        : `Authorization ${JSON.stringify(plan.auth.header.slice(0, 60))}`;
  const summary = `${plan.method} ${plan.op.path} [${plan.op.id}] as ${who}, ${plan.encoding}${plan.featureLevel !== null ? `, level ${plan.featureLevel}` : ''}: ${[...params, ...plan.extra.map(([k, v]) => `${k}=${short(v)}`)].join(', ')}`;
  return Object.assign(plan, { [fc.toStringMethod]: () => summary });
}

const UNRESERVED = /[A-Za-z0-9\-_.~]/;

/** Percent-encodes text (as UTF-8) or bytes; raw text goes out exactly as given. */
export function encodeWire(w: Wire): string {
  if (typeof w === 'object' && 'raw' in w) return w.raw;
  const bytes = typeof w === 'string' ? Buffer.from(w, 'utf8') : Buffer.from(w.bytes);
  let out = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && UNRESERVED.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function wireBytes(w: Wire): Buffer {
  if (typeof w === 'string') return Buffer.from(w, 'utf8');
  if ('raw' in w) return Buffer.from(w.raw, 'latin1');
  return Buffer.from(w.bytes);
}

export function multipartBody(fields: Array<[string, Wire]>, boundary: string): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n`),
      wireBytes(value),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

export function basic(email: string, key: string): string {
  return `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
}

/** The raw request for a plan; `credentials` gives a fixture user's Authorization header by short name. */
export function buildRequest(plan: Plan, credentials: (user: string) => string): RawRequest {
  let path = plan.op.path;
  const fields: Array<[string, Wire]> = [];
  for (const { p, wire, repeat } of plan.params) {
    if (p.in === 'path') {
      path = path.replace(`{${p.name}}`, encodeWire(wire));
      continue;
    }
    if (repeat !== null) fields.push([p.name, repeat]);
    fields.push([p.name, wire]);
  }
  fields.push(...plan.extra);
  const headers: Record<string, string> = { 'user-agent': 'teamchat-fuzz/1' };
  if (plan.auth && 'user' in plan.auth) headers.authorization = credentials(plan.auth.user);
  else if (plan.auth) headers.authorization = plan.auth.header;
  if (plan.featureLevel !== null) headers['x-mock-feature-level'] = plan.featureLevel;
  const form = fields.map(([k, v]) => `${encodeWire(k)}=${encodeWire(v)}`).join('&');
  // Downloads of uploads are served at the site root, not under the API prefix.
  let target = `${plan.op.siteRoot ? '' : '/api/v1'}${path}`;
  let body: Buffer | undefined;
  const inQuery = plan.encoding === 'query' || plan.method === 'GET' || plan.method === 'HEAD';
  if (inQuery) {
    if (form) target += `?${form}`;
  } else if (plan.encoding === 'form') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = Buffer.from(form, 'latin1');
  } else if (plan.encoding === 'multipart') {
    const boundary = 'fuzzBoundary7MA4YWxkTrZu0gW';
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    body = multipartBody(fields, boundary);
  } else {
    headers['content-type'] = 'application/json';
    body = Buffer.from(
      JSON.stringify(Object.fromEntries(fields.map(([k, v]) => [k, wireBytes(v).toString('utf8')]))),
      'utf8',
    );
  }
  return { method: plan.method, path: target, headers, body };
}
