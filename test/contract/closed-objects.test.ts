// Answers of a closed object schema (src/contract/closed-objects.ts) are first looked at key by
// key, and only those that look wrong go through ajv's whole validator. The quick look may only
// ever pass what the whole validator passes, and should pass the real answers (or it saves
// nothing): compared here on register answers of every section, at the newest level and at 372,
// and on each of them broken in the ways an answer breaks (a key no part names, a required key
// missing, a value of the wrong type, deep or at the top, undefined values).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract, type Contract } from '../../src/contract/contract.js';
import { resolveRef, SchemaCompiler } from '../../src/contract/ajv.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let contract: Contract;
let t: TestServer;
beforeAll(async () => {
  contract = compileContract();
  t = await startTestServer();
});
afterAll(() => t.close());

const schemaOf = (opId: string) =>
  resolveRef(contract.doc, contract.byId.get(opId)!.spec.responses['200'])!.content['application/json'].schema;

/** The same answer, broken in each way an answer breaks. */
function broken(body: Record<string, any>): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [
    ['an unknown key', { ...body, not_a_field: 1 }],
    ['an unknown key, undefined', { ...body, not_a_field: undefined }],
    ['a required key missing', (({ queue_id: _, ...rest }) => rest)(body)],
    ['a required key undefined', { ...body, zulip_version: undefined }],
    ['an optional key undefined', { ...body, max_message_id: undefined }],
    ['a top-level value of the wrong type', { ...body, last_event_id: 'x' }],
    ['not an object', [body]],
    ['null', null],
  ];
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value) && value.length && value[0] && typeof value[0] === 'object') {
      const [first, ...rest] = value;
      const firstKey = Object.keys(first)[0];
      out.push([
        `${key}[0].${firstKey} of the wrong type`,
        { ...body, [key]: [{ ...first, [firstKey]: {} }, ...rest] },
      ]);
      out.push([`${key}[0] with an unknown key`, { ...body, [key]: [{ ...first, zzz: 1 }, ...rest] }]);
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      out.push([`${key} with an unknown key`, { ...body, [key]: { ...value, zzz: { zzz: 1 } } }]);
    } else {
      out.push([`${key} of the wrong type`, { ...body, [key]: typeof value === 'string' ? 1 : 'x' }]);
    }
  }
  return out;
}

/** Compares the quick look with the whole validator on `body` and on each of its broken forms; how many were compared. */
const checks = new Map<string, { full: (data: unknown) => boolean; quick: ((data: unknown) => boolean) | null }>();
function compare(opId: string, body: Record<string, any>): number {
  let check = checks.get(opId);
  if (!check) {
    // Compiled once per operation (the register answer's whole validator takes a second).
    const compiler = new SchemaCompiler(contract.doc);
    const schema = schemaOf(opId);
    checks.set(opId, (check = { full: compiler.compile(schema), quick: compiler.closedCheck(schema) }));
  }
  const { full, quick } = check as { full: (data: unknown) => boolean; quick: (data: unknown) => boolean };
  expect(quick).not.toBeNull();
  expect(full(body)).toBe(true);
  expect(quick(body)).toBe(true);
  let checked = 0;
  for (const [how, bad] of broken(body)) {
    checked++;
    if (quick(bad)) expect({ opId, how, full: full(bad) }).toEqual({ opId, how, full: true });
    // And the answer's check (quick look, then the whole validator) agrees with the whole validator.
    const passes = contract.checkResponse(contract.byId.get(opId)!, 200, bad).length === 0;
    expect({ opId, how, passes }).toEqual({ opId, how, passes: full(bad) });
  }
  return checked;
}

const envelope = (body: Record<string, any>) => {
  const { result: _r, msg: _m, ...rest } = body;
  return { result: 'success', msg: '', ...rest };
};

describe('the quick look at closed objects', () => {
  it('passes the real register answers, and nothing the whole validator refuses', async () => {
    const asks = [{}, { event_types: '["message"]' }, { fetch_event_types: '["realm","presence"]' }];
    let checked = 0;
    for (const level of [undefined, '372']) {
      for (const ask of asks) {
        const res = await t.as('hamlet', level ? { 'X-Mock-Feature-Level': level } : {}).post('/register', ask);
        expect(res.status).toBe(200);
        checked += compare('register-queue', envelope(res.body));
      }
    }
    expect(checked).toBeGreaterThan(500);
  }, 120_000);

  it('passes the answers of sends, presence, flags, subscriptions and message reads, and nothing the whole validator refuses', async () => {
    const hamlet = t.as('hamlet');
    const sent = await hamlet.post('/messages', {
      type: 'stream',
      to: 'Denmark',
      topic: 'quick',
      content: 'hi @**King Hamlet**',
    });
    compare('send-message', envelope(sent.body));
    compare(
      'update-presence',
      envelope((await hamlet.post('/users/me/presence', { status: 'active', last_update_id: -1 })).body),
    );
    const narrow = JSON.stringify([{ operator: 'channel', operand: 'Denmark' }]);
    compare(
      'update-message-flags-for-narrow',
      envelope(
        (
          await hamlet.post('/messages/flags/narrow', {
            anchor: 'newest',
            num_before: 10,
            num_after: 0,
            narrow,
            op: 'add',
            flag: 'read',
          })
        ).body,
      ),
    );
    compare(
      'update-subscriptions',
      envelope(
        (await hamlet.patch('/users/me/subscriptions', { add: '[{"name":"Venice"}]', delete: '["Verona"]' })).body,
      ),
    );
    compare(
      'get-messages',
      envelope((await hamlet.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow })).body),
    );
  }, 120_000);
});
