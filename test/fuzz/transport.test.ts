// Property-based fuzzing of the HTTP layer for every /api/v1 operation: its valid request broken
// by one to three steps (odd paths, query strings, methods, content types and encodings, bodies
// empty, random, huge or with thousands of fields, broken multipart, hostile mock headers), plus
// requests node's own parser refuses. Same properties as the parameter fuzzer (check.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sharedContract } from '../../src/server.js';
import { credentialsOf, fuzzTarget } from './target.js';
import { checkRequest, describeRequest } from './check.js';
import { FUZZ_USERS } from './requests.js';
import { rawExchange } from './raw-http.js';
import { baseRequest, stepsArb } from './transport-requests.js';
import { fuzzRuns, fuzzSeed } from './settings.js';

const contract = sharedContract();
const RUNS = fuzzRuns(500);
const target = fuzzTarget();
const credentials = (who: string) => credentialsOf(target, who);

describe('fuzzing the HTTP layer', () => {
  it(`keeps every property over ${RUNS} broken requests (seed ${fuzzSeed()})`, async () => {
    const ops = contract.operations;
    // Each case carries the request it builds, so that a counterexample prints as that request.
    const cases = fc
      .tuple(fc.constantFrom(...ops), fc.constantFrom(...FUZZ_USERS), stepsArb)
      .map(([op, who, steps]) => {
        let req = baseRequest(contract.doc, op, credentials(who));
        for (const step of steps) req = step(req);
        return { req, [fc.toStringMethod]: () => `${op.id} as ${who}: ${describeRequest(req)}` };
      });
    await fc.assert(
      fc.asyncProperty(cases, async ({ req }) => {
        await checkRequest(target, req);
      }),
      { numRuns: RUNS, seed: fuzzSeed() + 1, endOnFailure: process.env.FUZZ_SHRINK === '0' },
    );
  }, 600_000);

  it.each([
    ['a malformed request line', 'GET /api/v1/users/me HTTP/9.9 extra\r\n\r\n'],
    ['a header without a colon', 'GET /api/v1/users/me HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n'],
    ['a lower-case method', 'get /api/v1/users/me HTTP/1.1\r\nHost: x\r\n\r\n'],
    [
      'an invalid chunk',
      'POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
    ],
    [
      'both Content-Length and chunked',
      'POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['headers past 16 KB', `GET /api/v1/users/me HTTP/1.1\r\nHost: x\r\nX-Filler: ${'x'.repeat(20_000)}\r\n\r\n`],
    ['a NUL in the path', 'GET /api/v1/users/\0me HTTP/1.1\r\nHost: x\r\n\r\n'],
  ])('answers %s with a JSON envelope (regression: node answered with a bare status line)', async (_name, bytes) => {
    const text = await rawExchange(target.t.base, bytes);
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(head.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(body)).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('is still serving afterwards', async () => {
    expect((await target.t.anonymous().get('/server_settings')).status).toBe(200);
    expect((await target.t.as('hamlet').get('/users/me')).body.email).toBe('hamlet@zulip.com');
  });
});
