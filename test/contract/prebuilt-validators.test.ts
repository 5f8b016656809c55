// The response validators the build compiles into the description's bundle (src/contract/
// prebuilt.ts): ajv's standalone code, used instead of compiling at run time. Each gives the
// same verdict and the same problems as the validator ajv compiles, on real answers and on
// answers broken in several ways; a planted one shows that they are used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../src/contract/contract.js';
import { keepValidators, loadDescription } from '../../src/contract/load.js';
import { FIRST_CALLS } from '../../src/contract/prebuilt.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const answers = new Map<string, Record<string, unknown>>();
beforeAll(async () => {
  t = await startTestServer();
  answers.set('get-server-settings', (await t.anonymous().get('/server_settings')).body);
  answers.set(
    'dev-fetch-api-key',
    (await t.anonymous().post('/dev_fetch_api_key', { username: 'hamlet@zulip.com' })).body,
  );
  answers.set('get-own-user', (await t.as('hamlet').get('/users/me')).body);
  const queue = (await t.as('hamlet').post('/register', { event_types: ['message'] })).body;
  await t.as('othello').post('/messages', { type: 'direct', to: [t.user('hamlet').user_id], content: 'hi' });
  answers.set(
    'get-events',
    (await t.as('hamlet').get('/events', { queue_id: queue.queue_id, last_event_id: -1, dont_block: true })).body,
  );
});
afterAll(() => t.close());

/** The answer broken in several ways: a field left out, a field of another type, a nested value changed. */
function broken(body: Record<string, unknown>): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const key of Object.keys(body)) {
    const { [key]: _gone, ...without } = body;
    out.push(without, { ...body, [key]: typeof body[key] === 'number' ? 'x' : 7 });
    const value = body[key];
    if (value && typeof value === 'object') {
      const inner = structuredClone(value) as Record<string, unknown>;
      const first = Object.keys(inner)[0];
      if (first !== undefined) {
        inner[first] = { unexpected: [null] };
        out.push({ ...body, [key]: inner });
      }
    }
  }
  return out;
}

describe('validators compiled by the build', () => {
  // A copy of the description never read from a bundle: the validators ajv compiles at run time.
  const compiled = new Contract(structuredClone(loadDescription('api')));
  const doc = structuredClone(loadDescription('api'));
  keepValidators(
    doc,
    Object.fromEntries(FIRST_CALLS.map((name) => [name, compiled.standaloneCode(name)!]).filter(([, code]) => code)),
  );
  const prebuilt = new Contract(doc);

  it('are kept for each first call', () => {
    for (const name of FIRST_CALLS) expect(compiled.standaloneCode(name), name).toMatch(/validate/);
  });

  it('give the same verdict and problems as the validators ajv compiles', () => {
    for (const [id, body] of answers) {
      const op = compiled.byId.get(id)!;
      expect(body.result, id).toBe('success');
      expect(prebuilt.checkResponse(prebuilt.byId.get(id)!, 200, body), id).toEqual([]);
      const cases = broken(body);
      expect(cases.length).toBeGreaterThan(3);
      let failing = 0;
      for (const b of cases) {
        const expected = compiled.checkResponse(op, 200, b);
        if (expected.length) failing++;
        expect(prebuilt.checkResponse(prebuilt.byId.get(id)!, 200, b), id).toEqual(expected);
      }
      expect(failing, id).toBeGreaterThan(1);
    }
  });

  it('are used: a planted one decides', () => {
    const planted = structuredClone(loadDescription('api'));
    const refuseAll =
      'module.exports = validate; module.exports.default = validate; ' +
      'function validate() { validate.errors = [{ instancePath: "/planted", message: "planted" }]; return false; }';
    keepValidators(planted, { 'get-server-settings 200': refuseAll });
    const contract = new Contract(planted);
    expect(
      contract.checkResponse(contract.byId.get('get-server-settings')!, 200, answers.get('get-server-settings')),
    ).toEqual([{ path: '/planted', message: 'planted' }]);
  });
});
