// A multipart request that carries a file part the operation does not use: as on the real server
// it is handled as if the file were not there (not refused, not listed as an ignored parameter),
// and the body size limits still hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const send = (path: string, form: FormData | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  fetch(`${t.base}/api/v1${path}`, {
    method: 'POST',
    body: form,
    duplex: 'half',
    headers: { authorization: basicAuth(t.user('hamlet').email, t.user('hamlet').api_key), ...headers },
  } as RequestInit);

describe('a multipart request with a file part', () => {
  it('is answered as if the file were not there', async () => {
    const form = new FormData();
    form.append('stream_id', '1');
    form.append('topic', 'with a file');
    form.append('visibility_policy', '1');
    form.append('attachment', new Blob(['not needed here'], { type: 'text/plain' }), 'notes.txt');
    const res = await send('/user_topics', form);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: 'success', msg: '' });
    const journal = await (await fetch(`${t.base}/__mock/journal?operation=update-user-topic&limit=1`)).json();
    expect(journal.entries[0].params).toEqual({ stream_id: 1, topic: 'with a file', visibility_policy: 1 });
  });

  it('still may not pass the body limit, with a declared length or chunked', async () => {
    const big = new FormData();
    big.append('topic', 'big');
    big.append('attachment', new Blob([new Uint8Array(1024 * 1024 + 10)]), 'big.bin');
    const declared = await send('/user_topics', big);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ result: 'error', msg: 'Request body too large', code: 'BAD_REQUEST' });

    const boundary = 'teamchat-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const chunks = [
      new TextEncoder().encode(head),
      new Uint8Array(1024 * 1024 + 10),
      new TextEncoder().encode(`\r\n--${boundary}--\r\n`),
    ];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const chunked = await send('/user_topics', stream, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual({ result: 'error', msg: 'Request body too large', code: 'BAD_REQUEST' });
  });
});
