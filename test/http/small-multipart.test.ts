// Multipart bodies are read two ways (src/http/body.ts): small ones of declared length in one pass
// (src/http/small-multipart.ts), everything else (chunked, larger, unusual) by multer. The same
// bytes must give the same fields, the same files and the same errors either way.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFormBody } from '../../src/http/body.js';
import { parseSmallMultipart, plainBoundary } from '../../src/http/small-multipart.js';

type Seen = { body: unknown; nullPrototype: boolean; files: unknown } | { error: string; code?: string };
let seen: Seen | null = null;
let server: http.Server;
let port = 0;
beforeAll(async () => {
  const app = express();
  app.use(
    withFormBody((req, res) => {
      seen = { body: req.body, nullPrototype: Object.getPrototypeOf(req.body) === null, files: req.files };
      res.end();
    }),
  );
  app.use((err: Error & { code?: string }, _req: express.Request, res: express.Response, _next: unknown) => {
    seen = { error: err.message, code: err.code };
    res.status(400).end();
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const B = 'small-multipart-test';
const TYPE = `multipart/form-data; boundary=${B}`;

/** POSTs `body` to `path` with a declared length or chunked (in two pieces); what the handler saw. */
function post(path: string, body: Buffer, chunked: boolean, type = TYPE): Promise<Seen> {
  seen = null;
  const headers: Record<string, string> = { 'content-type': type };
  if (!chunked) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request({ port, host: '127.0.0.1', path, method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(seen!));
    });
    req.on('error', reject);
    if (chunked) {
      req.write(body.subarray(0, body.length >> 1));
      req.end(body.subarray(body.length >> 1));
    } else req.end(body);
  });
}

/** A body of parts, each given as its header lines and its content. */
const bodyOf = (parts: Array<[string[], string | Buffer]>, { close = '\r\n', preamble = '' } = {}) =>
  Buffer.concat([
    Buffer.from(preamble),
    ...parts.flatMap(([headers, content]) => [
      Buffer.from(`--${B}\r\n${headers.join('\r\n')}\r\n\r\n`, 'latin1'),
      Buffer.from(content),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${B}--${close}`),
  ]);

const file = (name: string, filename: string, type?: string): string[] => [
  `Content-Disposition: form-data; name="${name}"; filename="${filename}"`,
  ...(type ? [`Content-Type: ${type}`] : []),
];
const field = (name: string): string[] => [`Content-Disposition: form-data; name="${name}"`];

/** Bodies of the shapes clients send: the one-pass parser must read each of them. */
const USUAL: Record<string, Buffer> = {
  'a file with its type': bodyOf([[file('filename', 'notes.txt', 'text/plain'), 'Minutes of the meeting.']]),
  'a file without a type (as Python requests sends it)': bodyOf([[file('file', 'data.bin'), 'raw bytes']]),
  'a type in capitals, read in small letters': bodyOf([[file('file', 'me.GIF', 'Image/GIF'), 'GIF89a']]),
  'header names in any case': bodyOf([
    [['content-disposition: form-data; name="file"; filename="x y.png"', 'CONTENT-TYPE: image/png'], 'png'],
  ]),
  'binary content': bodyOf([
    [file('file', 'b.bin', 'application/octet-stream'), Buffer.from([0, 13, 10, 45, 45, 255])],
  ]),
  'parameter names in capitals (busboy reads them in any case)': bodyOf([
    [['Content-Disposition: FORM-DATA; NAME="a"'], 'x'],
  ]),
  'an empty file': bodyOf([[file('file', 'empty.txt', 'text/plain'), '']]),
  'fields in UTF-8 (as the JavaScript client sends every POST)': bodyOf([
    [field('type'), 'stream'],
    [field('to'), 'Denmark'],
    [field('content'), 'Grüße, 東京 \r\n-- not a boundary'],
    [field('empty'), ''],
  ]),
  'fields and a file, no line break after the close': bodyOf(
    [
      [field('topic'), 'files'],
      [file('file', 'a.txt', 'text/plain'), 'one'],
    ],
    { close: '' },
  ),
};

/** Bodies the one-pass parser leaves to multer: what multer makes of them must not change. */
const UNUSUAL: Record<string, Buffer> = {
  'a file name with a path': bodyOf([[file('file', 'dir/sub\\a.txt', 'text/plain'), 'x']]),
  'a file name of two dots': bodyOf([[file('file', '..', 'text/plain'), 'x']]),
  'an escaped quote in a file name': bodyOf([[file('file', 'say %22hi%22.txt', 'text/plain'), 'x']]),
  'an empty file name': bodyOf([[file('file', '', 'application/octet-stream'), '']]),
  'a file name in Latin-1': bodyOf([[file('file', 'caf\xe9.txt', 'text/plain'), 'x']]),
  'a field given twice': bodyOf([
    [field('a'), 'one'],
    [field('a'), 'two'],
  ]),
  'a field with a charset': bodyOf([[[...field('a'), 'Content-Type: text/plain; charset=latin1'], 'caf\xe9']]),
  'an octet-stream part without a file name': bodyOf([
    [[...field('a'), 'Content-Type: application/octet-stream'], 'x'],
  ]),
  'a bracketed field name': bodyOf([[field('a[b]'), 'x']]),
  'another header': bodyOf([[[...file('file', 'a.txt', 'text/plain'), 'Content-Transfer-Encoding: binary'], 'x']]),
  'a type with parameters': bodyOf([[file('file', 'a.txt', 'text/plain; charset=utf-8'), 'x']]),
  'a preamble': bodyOf([[field('a'), 'x']], { preamble: 'ignored\r\n' }),
  'an epilogue': bodyOf([[field('a'), 'x']], { close: '\r\nafter the end' }),
  'three files (uploads take two at most)': bodyOf([
    [file('f1', 'a.txt', 'text/plain'), 'a'],
    [file('f2', 'b.txt', 'text/plain'), 'b'],
    [file('f3', 'c.txt', 'text/plain'), 'c'],
  ]),
  'no close': Buffer.from(`--${B}\r\n${field('a').join('\r\n')}\r\n\r\nx`),
  'no headers': Buffer.from(`--${B}\r\n\r\nx\r\n--${B}--\r\n`),
  'a part without a disposition': bodyOf([[['Content-Type: text/plain'], 'x']]),
};

const bounds = { fieldSize: 1024 * 1024, fields: 2000, fileSize: 1024 * 1024, files: 2 };

describe('multipart bodies', () => {
  it('of the usual shapes are read in one pass', () => {
    for (const [name, body] of Object.entries(USUAL))
      expect(parseSmallMultipart(body, B, bounds, true), name).not.toBeNull();
  });

  it('of other shapes are left to multer', () => {
    for (const [name, body] of Object.entries(UNUSUAL))
      expect(parseSmallMultipart(body, B, bounds, true), name).toBeNull();
    expect(plainBoundary(`multipart/form-data; boundary="${B}"`)).toBeNull();
    expect(plainBoundary('multipart/mixed; boundary=x')).toBeNull();
    expect(plainBoundary(`multipart/form-data; boundary=${B}; charset=utf-8`)).toBeNull();
  });

  for (const path of ['/user_uploads', '/messages']) {
    it(`give the same fields, files and errors read either way (${path})`, async () => {
      for (const [name, body] of Object.entries({ ...USUAL, ...UNUSUAL })) {
        const whole = await post(path, body, false);
        const streamed = await post(path, body, true);
        expect(whole, name).toEqual(streamed);
        // toEqual does not tell a null prototype from Object's, nor a Buffer's bytes from its view.
        if ('body' in whole) expect(whole.nullPrototype, name).toBe(true);
      }
    });
  }

  it('keep the bytes of an upload, and only the size of a file an operation does not take', async () => {
    const body = USUAL['binary content'];
    expect(await post('/user_uploads', body, false)).toEqual({
      body: {},
      nullPrototype: true,
      files: [
        {
          fieldname: 'file',
          originalname: 'b.bin',
          encoding: '7bit',
          mimetype: 'application/octet-stream',
          size: 6,
          buffer: Buffer.from([0, 13, 10, 45, 45, 255]),
        },
      ],
    });
    expect(await post('/messages', body, false)).toEqual({
      body: {},
      nullPrototype: true,
      files: [
        { fieldname: 'file', originalname: 'b.bin', encoding: '7bit', mimetype: 'application/octet-stream', size: 6 },
      ],
    });
  });

  it('past one pass’s size are streamed to multer, with the same result', async () => {
    const big = bodyOf([[file('file', 'big.bin', 'application/octet-stream'), Buffer.alloc(300 * 1024, 7)]]);
    const whole = await post('/user_uploads', big, false);
    expect(whole).toEqual(await post('/user_uploads', big, true));
    expect((whole as any).files[0].size).toBe(300 * 1024);
  });
});
