// Fuzzed requests that attack the HTTP layer rather than the parameters: odd paths (`//`,
// `%2e%2e`, `..`, trailing slashes, encoded slashes, NUL, invalid percent-encoding, huge paths),
// odd query strings, methods, content types and encodings, empty, random, huge and many-field
// bodies, broken multipart, and the mock's own headers with hostile values. Each starts from an
// operation's valid request, so that what decides the answer is the one thing broken.
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import type { OpenApiDoc } from '../../src/contract/load.js';
import type { Operation } from '../../src/contract/operations.js';
import { sampleValue, wireValue } from '../helpers/samples.js';
import { badAuthorizationArb } from './arbitraries.js';
import { BODY_LIMIT_BYTES as BODY_LIMIT } from '../../src/http/body.js';
import type { RawRequest } from './raw-http.js';
import { encodeWire, multipartBody } from './requests.js';

type Step = (req: RawRequest) => RawRequest;

const withPath =
  (f: (p: string) => string): Step =>
  (req) => {
    const [path, ...query] = req.path.split('?');
    return { ...req, path: f(path) + (query.length ? `?${query.join('?')}` : '') };
  };
const withHeader =
  (name: string, value: string): Step =>
  (req) => ({ ...req, headers: { ...req.headers, [name]: value } });
const withBody =
  (body: Buffer, contentType?: string): Step =>
  (req) => ({
    ...req,
    body,
    headers: contentType === undefined ? req.headers : { ...req.headers, 'content-type': contentType },
  });

/** Replaces the n-th slash (cycling) of the path with `by`. */
const atSlash = (n: number, by: string) => (p: string) => {
  const slashes = [...p.matchAll(/\//g)].map((m) => m.index!);
  const i = slashes[n % slashes.length];
  return p.slice(0, i) + by + p.slice(i + 1);
};

const pathSteps: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom<Step>(
    withPath((p) => `${p}/`),
    withPath((p) => `${p}//`),
    withPath((p) => `/${p}`),
    withPath((p) => p.replace('/api/v1', '/api/v1/')),
    withPath((p) => p.replace('/api/v1', '/api/v1/%2e%2e/api/v1')),
    withPath((p) => p.replace('/api/v1', '/api/v1/..%2fapi/v1')),
    withPath((p) => p.replace('/api/v1', '/api/v1/../v1')),
    withPath((p) => p.replace('/api/v1', '/api/v1/.')),
    withPath((p) => `${p}/%2e%2e`),
    withPath((p) => `${p}/..`),
    withPath((p) => `${p}/.`),
    withPath((p) => p.replace('/api/v1', '/API/V1')),
    withPath((p) => p.toUpperCase()),
    withPath((p) => `${p}%00`),
    withPath((p) => `${p}%zz`),
    withPath((p) => `${p}%`),
    withPath((p) => `${p}%C0%AE%C0%AE`),
    withPath((p) => `${p};x=1`),
    withPath((p) => `${p}#frag`),
    withPath((p) => p.replace(/\/(\d+)/, '/%31$1')),
    withPath((p) => p.replace(/\/(\d+)/, '/%20$1')),
    withPath((p) => p.replace(/\/(\d+)/, '/-$1')),
    withPath((p) => p.replace(/\/(\d+)/, `/${'9'.repeat(400)}`)),
    withPath((p) => `/sandbox/fuzz${p}`),
    withPath((p) => `/sandbox/..${p}`),
    withPath((p) => `/sandbox/bad%20name${p}`),
    withPath((p) => `/sandbox/${'a'.repeat(65)}${p}`),
    withPath((p) => `/__mock/%2e%2e${p}`),
    withPath(() => '/__mock/info'),
    withPath(() => '/__mock/no-such'),
    withPath(() => '/'),
    withPath(() => '*'),
    withPath((p) => `${p}/${'a/'.repeat(3000)}`),
    withPath((p) => `${p}/${'a'.repeat(20_000)}`),
    withPath((p) => `http://example.com${p}`),
  ),
  fc.nat(8).map((n) => withPath(atSlash(n, '//'))),
  fc.nat(8).map((n) => withPath(atSlash(n, '%2F'))),
  fc.nat(8).map((n) => withPath(atSlash(n, '/./'))),
);

const querySteps: fc.Arbitrary<Step> = fc.constantFrom<Step>(
  (r) => ({ ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}` }),
  (r) => ({ ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}&&=&%=%zz&a=%&b=%E0%A4` }),
  (r) => ({
    ...r,
    path: `${r.path}${r.path.includes('?') ? '&' : '?'}__proto__[polluted]=1&constructor[prototype][polluted]=1&__proto__=x`,
  }),
  (r) => ({ ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}${'k=v&'.repeat(1500)}` }),
  (r) => ({ ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}${r.path.split('?')[1] ?? 'x=1'}` }),
  (r) => ({ ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}x=${'%FF'.repeat(2000)}` }),
);

const methodSteps: fc.Arbitrary<Step> = fc
  .constantFrom(
    'GET',
    'POST',
    'PUT',
    'PATCH',
    'DELETE',
    'OPTIONS',
    'HEAD',
    'TRACE',
    'PROPFIND',
    'PURGE',
    'get',
    'M-SEARCH',
  )
  .map((method): Step => (r) => ({ ...r, method }));

const CONTENT_TYPES = [
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=latin1',
  'application/x-www-form-urlencoded; charset=utf-16',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=nope',
  'application/json',
  'text/plain',
  'text/html',
  'application/xml',
  'application/octet-stream',
  ';;;',
  '',
  'application/x-www-form-urlencoded, application/json',
  '*/*',
  'x/y; a="unterminated',
];

const bodySteps: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom(...CONTENT_TYPES).map((ct) => withHeader('content-type', ct)),
  fc.constantFrom<Step>(
    withBody(Buffer.alloc(0)),
    withBody(Buffer.alloc(0), 'application/x-www-form-urlencoded'),
    withBody(Buffer.from('{"a":1,"a":2,"__proto__":{"polluted":true}}'), 'application/json'),
    withBody(Buffer.from('{broken'), 'application/json'),
    withBody(Buffer.from('['.repeat(100_000)), 'application/json'),
    withBody(Buffer.alloc(BODY_LIMIT + 1, 'a'), 'application/x-www-form-urlencoded'),
    withBody(
      Buffer.concat([Buffer.from('content='), Buffer.alloc(BODY_LIMIT + 10, 'b')]),
      'application/x-www-form-urlencoded',
    ),
    withBody(
      Buffer.from(Array.from({ length: 2500 }, (_, i) => `k${i}=1`).join('&')),
      'application/x-www-form-urlencoded',
    ),
    withBody(multipartBody([['content', 'b'.repeat(BODY_LIMIT + 10)]], 'bnd'), 'multipart/form-data; boundary=bnd'),
    withBody(
      Buffer.from('--bnd\r\nContent-Disposition: form-data; name="f"; filename="x.txt"\r\n\r\nfile\r\n--bnd--\r\n'),
      'multipart/form-data; boundary=bnd',
    ),
    withBody(
      Buffer.from('--bnd\r\nContent-Disposition: form-data; name="unterminated"\r\n\r\nvalue'),
      'multipart/form-data; boundary=bnd',
    ),
    withBody(Buffer.from('garbage without boundaries'), 'multipart/form-data; boundary=bnd'),
    withBody(
      multipartBody(
        Array.from({ length: 2100 }, (_, i) => [`k${i}`, '1'] as [string, string]),
        'bnd',
      ),
      'multipart/form-data; boundary=bnd',
    ),
    withBody(Buffer.from('a=1&b=2'), 'application/x-www-form-urlencoded; charset=utf-16'),
    (r) => ({
      ...withBody(gzipSync(r.body ?? Buffer.alloc(0)))(r),
      headers: { ...r.headers, 'content-encoding': 'gzip' },
    }),
    (r) => ({ ...r, headers: { ...r.headers, 'content-encoding': 'gzip' } }),
    (r) => ({ ...r, headers: { ...r.headers, 'content-encoding': 'x-unknown' } }),
    (r) => ({ ...r, headers: { ...r.headers, 'content-encoding': 'br' } }),
    withBody(gzipSync(Buffer.alloc(8 * BODY_LIMIT, 'a')), undefined),
  ),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => withBody(Buffer.from(bytes))),
  fc
    .string({ maxLength: 200, unit: 'binary' })
    .map((s) => withBody(Buffer.from(s, 'utf8'), 'application/x-www-form-urlencoded')),
);

const SCENARIO_NAMES = [
  'rate-limited',
  'deactivated-account',
  'no-such-scenario',
  '../package',
  '..%2fpackage',
  '../../etc/passwd',
  'a,b',
  ',',
  '/etc/passwd',
  'rate-limited, ../x',
];

const headerSteps: fc.Arbitrary<Step> = fc.oneof(
  badAuthorizationArb.map((v) => withHeader('authorization', v)),
  fc.constantFrom(...SCENARIO_NAMES).map((v) => withHeader('x-mock-scenario', v)),
  fc.constantFrom('fuzz', 'bad name!', '', 'a'.repeat(65), '..', 'default').map((v) => withHeader('x-mock-sandbox', v)),
  fc
    .constantFrom('0', '1', '54', '496', '9999', '-1', 'abc', '1e3', '')
    .map((v) => withHeader('x-mock-feature-level', v)),
  fc.constantFrom('100-continue', 'nonsense').map((v) => withHeader('expect', v)),
  fc.constantFrom(`${'x'.repeat(20_000)}`).map((v) => withHeader('x-filler', v)),
  fc.constant<Step>((r) => ({ ...r, headers: { ...r.headers, 'x-mock-scenario': ['rate-limited', 'no-such'] } })),
  fc.constant<Step>((r) => {
    const { authorization: _gone, ...headers } = r.headers;
    return { ...r, headers };
  }),
);

/** An operation's valid request as `who` (a Basic header), to be broken by the steps. */
export function baseRequest(doc: OpenApiDoc, op: Operation, authorization: string): RawRequest {
  let path = op.path;
  const form: string[] = [];
  for (const p of op.params) {
    if (!p.required) continue;
    const wire = wireValue(p, sampleValue(doc, p.schema));
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeWire(wire));
    else form.push(`${encodeWire(p.name)}=${encodeWire(wire)}`);
  }
  const method = op.method.toUpperCase();
  const headers: Record<string, string | string[]> = { authorization };
  // Downloads of uploads are served at the site root, not under the API prefix.
  const prefix = op.siteRoot ? '' : '/api/v1';
  if (method === 'GET') return { method, path: `${prefix}${path}${form.length ? `?${form.join('&')}` : ''}`, headers };
  headers['content-type'] = 'application/x-www-form-urlencoded';
  return { method, path: `${prefix}${path}`, headers, body: Buffer.from(form.join('&')) };
}

/** One to three breaking steps, of any kind. */
export const stepsArb: fc.Arbitrary<Step[]> = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: pathSteps },
    { weight: 1, arbitrary: querySteps },
    { weight: 1, arbitrary: methodSteps },
    { weight: 3, arbitrary: bodySteps },
    { weight: 2, arbitrary: headerSteps },
  ),
  { minLength: 1, maxLength: 3 },
);
