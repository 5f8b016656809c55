// GET, PUT and DELETE /bot_storage: each account's own string entries, the real server's errors
// and its size limit (keys and values together, in characters).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
beforeEach(() => t.server.world.reset());
afterAll(async () => {
  await t.close();
});

const bot = () => t.as('hamlet-bot');
const stored = async (who = 'hamlet-bot') => (await t.as(who).get('/bot_storage')).body.storage;

describe('/bot_storage', () => {
  it('starts empty, stores entries, replaces one, and reads them back by key or all', async () => {
    expect(await stored()).toEqual({});
    expect((await bot().call('PUT', '/bot_storage', { storage: { counter: '1', name: 'x' } })).status).toBe(200);
    await bot().call('PUT', '/bot_storage', { storage: { counter: '2' } });
    expect(await stored()).toEqual({ counter: '2', name: 'x' });
    const one = await bot().get('/bot_storage', { keys: ['name'] });
    expect(one.body).toEqual({ result: 'success', msg: '', storage: { name: 'x' } });
    expect((await bot().get('/bot_storage', { keys: [] })).body.storage).toEqual({ counter: '2', name: 'x' });
  });

  it("keeps each account's entries apart (a human account has its own too)", async () => {
    await bot().call('PUT', '/bot_storage', { storage: { counter: '1' } });
    expect(await stored('iago-bot')).toEqual({});
    await t.as('hamlet').call('PUT', '/bot_storage', { storage: { mine: 'yes' } });
    expect(await stored('hamlet')).toEqual({ mine: 'yes' });
    expectError(
      await t.as('iago-bot').get('/bot_storage', { keys: ['counter'] }),
      400,
      'BAD_REQUEST',
      'Key does not exist.',
    );
  });

  it('refuses reading or removing a key without an entry, removing nothing then', async () => {
    await bot().call('PUT', '/bot_storage', { storage: { a: '1', b: '2' } });
    expectError(await bot().get('/bot_storage', { keys: ['a', 'missing'] }), 400, 'BAD_REQUEST', 'Key does not exist.');
    expectError(
      await bot().delete('/bot_storage', { keys: ['a', 'missing'] }),
      400,
      'BAD_REQUEST',
      'Key does not exist.',
    );
    expect(await stored()).toEqual({ a: '1', b: '2' });
    expect((await bot().delete('/bot_storage', { keys: ['a'] })).status).toBe(200);
    expect(await stored()).toEqual({ b: '2' });
    await bot().delete('/bot_storage');
    expect(await stored()).toEqual({});
  });

  it('refuses a write that would pass the limit, counting characters of keys and values, and changes nothing', async () => {
    const limit = t.server.server.botStorageLimit;
    expect(limit).toBe(10_000_000);
    // Requests are at most 1 MB: fill the storage up to 10 characters short of the limit in ten.
    const keys = Array.from({ length: 10 }, (_, i) => `k${i}`);
    for (const [i, key] of keys.entries()) {
      const value = 'x'.repeat(limit / 10 - key.length - (i === 9 ? 10 : 0));
      expect((await bot().call('PUT', '/bot_storage', { storage: { [key]: value } })).status).toBe(200);
    }
    // 10 characters are left: a 4-character key with a 7-character value (one of them outside the BMP) is 1 too many.
    const r = await bot().call('PUT', '/bot_storage', { storage: { more: 'abcde😀f' } });
    expectError(
      r,
      400,
      'BAD_REQUEST',
      'Request exceeds storage limit by 1 characters. The limit is 10000000 characters.',
    );
    expect(Object.keys(await stored())).toEqual(keys);
    // Replacing an entry counts only the difference.
    expect((await bot().call('PUT', '/bot_storage', { storage: { more: 'abcde😀' } })).status).toBe(200);
  });

  it('refuses values that are not strings and a missing storage', async () => {
    expectError(
      await bot().call('PUT', '/bot_storage', { storage: { counter: 3 } }),
      400,
      'BAD_REQUEST',
      'storage["counter"] is not a string',
    );
    expectError(
      await bot().call('PUT', '/bot_storage', {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'storage' argument",
    );
  });
});
