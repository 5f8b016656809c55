// Express 5 parses the query string again at every read of req.query (a getter): the pipeline
// reads it once per request, so that a read built anew parses its query once.
import querystring from 'node:querystring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let parses = 0;
beforeAll(async () => {
  t = await startTestServer();
  // Express's default ("simple") query parser, counted.
  const app = (t.server as unknown as { app: { set(name: string, value: unknown): void } }).app;
  app.set('query parser fn', (text: string) => {
    parses++;
    return querystring.parse(text);
  });
});
afterAll(() => t.close());

describe('the query string', () => {
  it('is parsed once per request', async () => {
    parses = 0;
    const narrow = JSON.stringify([{ operator: 'channel', operand: 'Denmark' }]);
    const r = await t.as('hamlet').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow });
    expect(r.status).toBe(200);
    expect(r.body.messages.length).toBe(5);
    expect(parses).toBe(1);
  });
});
