// Property-based fuzzing of the /__mock control API (openapi/control.yaml), which tests drive
// with JSON bodies: valid and hostile values for every field (wrong types, past every limit,
// prototype keys, deep nesting, corrupted state snapshots), broken JSON. Same properties as the
// API fuzzers, and after any accepted change the API itself must still answer without a 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedControlContract } from '../../src/control/contract.js';
import type { Operation, ParamSpec } from '../../src/contract/operations.js';
import { defaultFixturePath, readStateFile } from '../../src/store/fixture.js';
import { startTestServer } from '../helpers/server.js';
import { limitBreakers } from '../helpers/samples.js';
import { validArb } from './arbitraries.js';
import { checkRequest, describeRequest, resetWorld, type FuzzTarget } from './check.js';
import { basic, encodeWire } from './requests.js';
import type { RawRequest } from './raw-http.js';
import { fuzzRuns, fuzzSeed } from './settings.js';

const contract = sharedControlContract();
// The journal and outbox streams are server-sent event feeds that stay open; they have their own tests.
const ops = contract.operations.filter((op) => op.id !== 'mock-journal-stream' && op.id !== 'mock-outbox-stream');
const RUNS = fuzzRuns(300);
const FROZEN_AT = Date.UTC(2025, 5, 1, 12);
const target = { logs: [] } as unknown as FuzzTarget;
const fixture = readStateFile(defaultFixturePath());

beforeAll(async () => {
  target.t = await startTestServer({ longpollTimeoutSeconds: 1, log: (line) => target.logs.push(line) });
  restore();
});
afterAll(() => target.t.close());

/** Clock, scenarios and level back to the start, and the state back to the fixture. */
function restore(): void {
  const world = target.t.server.world;
  world.clock.set(FROZEN_AT);
  world.clock.freeze();
  world.parts.scenarios.deactivate();
  world.featureLevel = null;
  resetWorld(target);
}

/** A fixture snapshot with one thing broken: a row of the wrong shape, a key missing or duplicated. */
const corruptStateArb = fc
  .tuple(
    fc.constantFrom('users', 'streams', 'subscriptions', 'user_groups', 'messages', 'realm'),
    fc.constantFrom('empty-row', 'null-row', 'no-key', 'wrong-types', 'duplicate', 'not-array', 'proto'),
  )
  .map(([name, how]) => {
    const state: any = structuredClone(fixture);
    const rows = state[name];
    const first = Array.isArray(rows) ? rows[0] : rows;
    if (how === 'empty-row') Array.isArray(rows) ? rows.push({}) : (state[name] = {});
    if (how === 'null-row') Array.isArray(rows) ? rows.push(null) : (state[name] = null);
    if (how === 'no-key') for (const k of ['user_id', 'stream_id', 'id', 'email', 'name']) delete first[k];
    if (how === 'wrong-types') for (const k of Object.keys(first)) first[k] = typeof first[k] === 'string' ? 5 : 'x';
    if (how === 'duplicate' && Array.isArray(rows)) rows.push(structuredClone(first));
    if (how === 'not-array') state[name] = 'nope';
    if (how === 'proto') first.__proto__ = { polluted: true };
    return state;
  });

const HOSTILE_VALUES: unknown[] = [
  null,
  -1,
  1.5,
  2 ** 53,
  1e300,
  '',
  'x'.repeat(100_000),
  [],
  {},
  true,
  '../../etc/passwd',
  '..',
  '/etc/passwd',
  'default/../default',
  '%2e%2e',
  'a\u0000b',
  JSON.parse('{"__proto__":{"polluted":true}}'),
  { constructor: { prototype: { polluted: true } } },
];

/** JSON text put into the body as it is: values too deep to build and stringify in the test. */
class RawJson {
  constructor(readonly text: string) {}
}
const deep = (open: string, inner: string, close: string, n: number) =>
  new RawJson(open.repeat(n) + inner + close.repeat(n));
const DEEP_VALUES = [
  deep('{"a":', '1', '}', 60_000),
  deep('[', '', ']', 150_000),
  deep('[{"a":', '1', '}]', 30_000),
  new RawJson(`{"name":"deep","state":{"realm":${deep('{"a":', '1', '}', 60_000).text}}}`),
  new RawJson(
    `{"name":"deep","rules":[{"operation":"get-own-user","respond":{"success":${deep('{"a":', '1', '}', 60_000).text}}}]}`,
  ),
];

function valueArb(p: ParamSpec): fc.Arbitrary<unknown> {
  const breakers = limitBreakers(contract.doc, p.schema);
  const hostile = [...HOSTILE_VALUES, ...breakers];
  const special =
    p.name === 'state'
      ? [corruptStateArb]
      : p.name === 'definition'
        ? [fc.record({ name: fc.string(), state: fc.jsonValue({ maxDepth: 3 }), rules: fc.jsonValue({ maxDepth: 3 }) })]
        : [];
  return fc.oneof(
    validArb(contract.doc, p.schema),
    fc.constantFrom(...hostile),
    fc.constantFrom(...DEEP_VALUES),
    ...special,
  );
}

/** JSON text of an object whose keys survive as written (__proto__ included). */
const objectText = (entries: Array<[string, unknown]>) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v instanceof RawJson ? v.text : JSON.stringify(v)}`).join(',')}}`;

function requestArb(op: Operation): fc.Arbitrary<RawRequest> {
  const fields = op.params.map((p) => fc.option(valueArb(p), { freq: 3 }).map((v) => [p, v] as const));
  const rawBody = fc.constantFrom(
    '',
    '{',
    'null',
    '[]',
    '1',
    '"x"',
    '['.repeat(100_000),
    '{"a":1,"a":2}',
    objectText([['__proto__', { polluted: true }]]),
  );
  return fc
    .tuple(
      fc.tuple(...fields),
      fc.option(rawBody, { freq: 8 }),
      fc.array(fc.constantFrom('__proto__', 'constructor', 'extra'), { maxLength: 1 }),
    )
    .map(([values, raw, extra]) => {
      let path = op.path;
      const query: string[] = [];
      const body: Array<[string, unknown]> = extra.map((k) => [k, 1]);
      for (const [p, v] of values) {
        if (v === null && !p.required) continue;
        const text =
          v instanceof RawJson
            ? v.text.slice(0, 3000)
            : typeof v === 'string' && !p.json
              ? v
              : (JSON.stringify(v) ?? 'null');
        if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeWire(text));
        else if (p.in === 'query') query.push(`${encodeWire(p.name)}=${encodeWire(text)}`);
        else body.push([p.name, v]);
      }
      const method = op.method.toUpperCase();
      const req: RawRequest = {
        method,
        path: `/__mock${path}${query.length ? `?${query.join('&')}` : ''}`,
        headers: { 'content-type': 'application/json' },
      };
      if (method !== 'GET') req.body = Buffer.from(raw ?? objectText(body));
      return req;
    });
}

const cases = fc
  .constantFrom(...ops)
  .chain(requestArb)
  .map((req) => ({ req, [fc.toStringMethod]: () => describeRequest(req) }));

describe('fuzzing the control API', () => {
  it(`keeps every property over ${RUNS} generated requests (seed ${fuzzSeed()}), and the API keeps answering`, async () => {
    const hamlet = target.t.user('hamlet');
    const auth = { authorization: basic(hamlet.email, hamlet.api_key) };
    await fc.assert(
      fc.asyncProperty(cases, async ({ req }) => {
        try {
          const res = await checkRequest(target, req);
          if (res.status < 300) {
            // Whatever the control API accepted, the API must still answer without a 5xx.
            for (const path of ['/api/v1/users/me', '/api/v1/users/me/subscriptions', '/api/v1/server_settings']) {
              await checkRequest(target, { method: 'GET', path, headers: auth });
            }
            await checkRequest(target, {
              method: 'POST',
              path: '/api/v1/register',
              headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
              body: Buffer.from(''),
            });
          }
        } finally {
          restore();
        }
      }),
      { numRuns: RUNS, seed: fuzzSeed() + 2, endOnFailure: process.env.FUZZ_SHRINK === '0' },
    );
    expect(({} as any).polluted).toBeUndefined();
  }, 600_000);
});
