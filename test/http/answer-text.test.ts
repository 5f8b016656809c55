// Answers without kept parts are written from their JSON text, so that Node sends the head and
// the body in one write (bytes are corked and sent in two pieces). Whatever way an answer is
// written, the client reads exactly the bytes its Content-Length announces, non-ASCII text too.
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** What each answer's end() was given while `run` ran: 'string' or 'bytes', and the encoding. */
const ends: Array<{ kind: string; encoding: unknown }> = [];
const end = http.ServerResponse.prototype.end;
afterEach(() => {
  http.ServerResponse.prototype.end = end;
  ends.length = 0;
});
function watchEnds(): void {
  http.ServerResponse.prototype.end = function (this: http.ServerResponse, ...args: any[]) {
    ends.push({ kind: typeof args[0] === 'string' ? 'string' : 'bytes', encoding: args[1] });
    return (end as (...a: any[]) => http.ServerResponse).apply(this, args);
  } as typeof end;
}

/** The raw answer: its announced length, and its body as bytes. */
async function raw(path: string, headers: Record<string, string>) {
  const res = await fetch(`${t.base}/api/v1${path}`, { headers });
  return { length: Number(res.headers.get('content-length')), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('answers written from text', () => {
  it('writes an ASCII answer as text, latin1, byte for byte', async () => {
    watchEnds();
    const r = await t.as('hamlet').get('/users/me');
    expect(r.status).toBe(200);
    expect(ends).toEqual([{ kind: 'string', encoding: 'latin1' }]);
  });

  it('writes a non-ASCII answer as UTF-8 text, its length counted in bytes', async () => {
    const hamlet = t.as('hamlet');
    expect((await hamlet.patch('/settings', { full_name: 'Hamlet, Prinz von Dänemark 👑' })).status).toBe(200);
    watchEnds();
    const auth = { authorization: (hamlet as any).headers().authorization as string };
    const { length, bytes } = await raw('/users/me', auth);
    expect(ends).toEqual([{ kind: 'string', encoding: 'utf8' }]);
    expect(bytes.length).toBe(length);
    expect(JSON.parse(bytes.toString()).full_name).toBe('Hamlet, Prinz von Dänemark 👑');
  });

  it('writes a large answer (past 16 KiB) and an answer with kept parts as bytes', async () => {
    const hamlet = t.as('hamlet');
    for (let i = 0; i < 3; i++)
      await hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'text', content: 'é'.repeat(4000) });
    watchEnds();
    const auth = { authorization: (hamlet as any).headers().authorization as string };
    const narrow = encodeURIComponent(JSON.stringify([{ operator: 'channel', operand: 'Denmark' }]));
    const { length, bytes } = await raw(`/messages?anchor=newest&num_before=3&num_after=0&narrow=${narrow}`, auth);
    expect(ends.map((e) => e.kind)).toEqual(['bytes']);
    expect(bytes.length).toBe(length);
    expect(JSON.parse(bytes.toString()).messages.map((m: { content: string }) => m.content.length)).toEqual([
      4007, 4007, 4007,
    ]);
  });

  it('writes a reused answer as text too', async () => {
    const hamlet = t.as('hamlet');
    watchEnds();
    const first = await hamlet.get('/realm/domains');
    const second = await hamlet.get('/realm/domains');
    expect(second.body).toEqual(first.body);
    expect(ends.map((e) => e.kind)).toEqual(['string', 'string']);
  });
});
