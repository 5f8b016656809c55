// Property-based fuzzing of every /api/v1 operation of the description (fast-check): valid
// parameter sets, one parameter broken at a time (missing, wrong type, past a limit, bad or deeply
// nested JSON, prototype keys, huge or invalid-UTF-8 text), anything-goes sets with repeated keys,
// every role and broken credentials, four body encodings. The properties are in check.ts.
// `npm test` runs a bounded, seeded run; `npm run fuzz` a long one (FUZZ_RUNS, FUZZ_SEED).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sharedContract } from '../../src/server.js';
import { credentialsOf, fuzzTarget } from './target.js';
import { sampleValue, wireValue } from '../helpers/samples.js';
import { checkRequest, lastOperation, resetWorld } from './check.js';
import { buildRequest, planArb, type Plan } from './requests.js';
import { fuzzRuns, fuzzSeed } from './settings.js';

const contract = sharedContract();
const ops = contract.operations;
const RUNS = fuzzRuns(1300);
const target = fuzzTarget();
const credentials = (who: string) => credentialsOf(target, who);

describe('fuzzing every operation', () => {
  it('answers the generated valid request of every operation, as the owner, without a 5xx', async () => {
    for (const op of ops) {
      const params = op.params
        .filter((p) => p.required)
        .map((p) => ({ p, wire: wireValue(p, sampleValue(contract.doc, p.schema)), repeat: null }));
      const plan: Plan = {
        op,
        method: op.method.toUpperCase(),
        auth: { user: 'desdemona' },
        params,
        extra: [],
        encoding: 'form',
        featureLevel: Number.isFinite(op.removedAt) ? String(op.removedAt - 1) : null,
      };
      await checkRequest(target, buildRequest(plan, credentials));
      expect(lastOperation(target), op.id).toBe(op.id);
    }
  });

  // Each run is a short sequence from the fixture: later requests act on what earlier ones made
  // (a new channel, a deactivated user, a sent message), as a client session would.
  it(`keeps every property over ${RUNS} generated requests (seed ${fuzzSeed()})`, async () => {
    const seen = new Map<string, number>();
    const statuses = new Map<number, number>();
    const outcomes = new Map<string, Map<string, number>>();
    const exercise = async (plan: Plan): Promise<void> => {
      const res = await checkRequest(target, buildRequest(plan, credentials), { keepChanges: true });
      seen.set(plan.op.id, (seen.get(plan.op.id) ?? 0) + 1);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (process.env.FUZZ_REPORT) {
        const key = `${res.status} ${res.json?.code ?? ''} ${String(res.json?.msg ?? '').slice(0, 50)}`;
        const byOp = outcomes.get(plan.op.id) ?? new Map<string, number>();
        outcomes.set(plan.op.id, byOp.set(key, (byOp.get(key) ?? 0) + 1));
      }
    };
    await fc.assert(
      fc.asyncProperty(fc.array(planArb(contract.doc, ops), { minLength: 1, maxLength: 4 }), async (plans) => {
        resetWorld(target);
        for (const plan of plans) await exercise(plan);
      }),
      { numRuns: Math.ceil(RUNS / 2.5), seed: fuzzSeed(), endOnFailure: process.env.FUZZ_SHRINK === '0' },
    );
    if (process.env.FUZZ_REPORT) {
      console.log('statuses', Object.fromEntries(statuses));
      for (const [id, byOp] of outcomes) console.log(id, [...byOp].sort((a, b) => b[1] - a[1]).slice(0, 12));
    }
    // Every operation was exercised, and many requests got past validation into the views.
    for (const op of ops) expect(seen.get(op.id) ?? 0, op.id).toBeGreaterThan(0);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 20);
    resetWorld(target);
  }, 600_000);

  it('is still serving afterwards', async () => {
    expect((await target.t.anonymous().get('/server_settings')).status).toBe(200);
    expect((await target.t.as('hamlet').get('/users/me')).body.email).toBe('hamlet@zulip.com');
  });
});
