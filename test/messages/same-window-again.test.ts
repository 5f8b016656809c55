// GET /messages built anew (no answer cache) twice in a row: the responder answers an answer made
// of the same message parts with the same text between them with the bytes it made last
// (contract/fragments.ts, serialiseWithParts). The same parts under different fields must not.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ids } from '../helpers/messages.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ answerCache: false });
});
afterAll(async () => {
  await t.close();
});

const get = (numBefore: number) =>
  t.as('hamlet').get('/messages', { anchor: 'newest', num_before: numBefore, num_after: 0 });

it('the same window twice, then the same messages with found_oldest: the fields as each request asks', async () => {
  const all = (await get(5000)).body.messages as unknown[];
  const count = all.length;
  const first = await get(count);
  const again = await get(count);
  expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
  expect(first.body.found_oldest).toBe(false);
  // One more asked for than there are: the very same messages, now with the oldest found.
  const past = await get(count + 1);
  expect(ids(past.body.messages)).toEqual(ids(first.body.messages));
  expect(past.body.found_oldest).toBe(true);
  expect(JSON.stringify(past.body)).toBe(
    JSON.stringify(first.body).replace('"found_oldest":false', '"found_oldest":true'),
  );
});
