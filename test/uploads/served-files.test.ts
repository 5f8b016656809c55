// Users' files are served on the mock's own origin: never sniffed, never run as a page of that
// origin, and shown in place only for an exact list of types. And all worlds together are bound
// in what they keep, so sandboxes cannot fill the memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { download, TINY_PNG, upload } from '../helpers/uploads.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const CSP = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

async function served(type: string, name: string, bytes = TINY_PNG) {
  const up = await upload(t, 'hamlet', [{ name, bytes, type }]);
  expect(up.status).toBe(200);
  const res = await download(t, 'hamlet', up.body.url);
  return {
    disposition: res.disposition!.split(';')[0],
    nosniff: res.headers.get('x-content-type-options'),
    csp: res.headers.get('content-security-policy'),
  };
}

describe('served user files', () => {
  it.each([
    ['image/png', 'a.png', 'inline'],
    ['text/plain', 'a.txt', 'inline'],
    ['video/mp4', 'a.mp4', 'inline'],
    ['image/png+xml', 'a.png', 'attachment'],
    ['video/mp4+svg', 'a.mp4', 'attachment'],
    ['image/svg+xml', 'a.svg', 'attachment'],
    ['text/html', 'a.html', 'attachment'],
  ])('%s is served %s, with nosniff and a sandboxing CSP', async (type, name, disposition) => {
    expect(await served(type, name)).toEqual({ disposition, nosniff: 'nosniff', csp: CSP });
  });

  it('sends the same headers with avatars and custom emoji images', async () => {
    const emoji = Object.values<any>((await t.as('hamlet').get('/realm/emoji')).body.emoji)[0];
    const res = await fetch(`${t.base}${emoji.source_url}`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe(CSP);
  });
});

describe("the bound on all worlds' uploads together (--max-total-upload-space-mib)", () => {
  it('refuses an upload in any sandbox once all worlds together would pass it', async () => {
    const FIXTURE_BYTES = 70 + 77;
    const s = await startTestServer({
      maxUploadSpaceBytes: 10_000,
      maxTotalUploadSpaceBytes: 3 * FIXTURE_BYTES + 4_000,
    });
    try {
      const file = [{ name: 'data.bin', bytes: Buffer.alloc(1_500, 1) }];
      // Three worlds (the default one and two sandboxes) hold the fixture's files; two uploads fit.
      expect((await upload(s, 'hamlet', file, { 'X-Mock-Sandbox': 'one' })).status).toBe(200);
      expect((await upload(s, 'hamlet', file, { 'X-Mock-Sandbox': 'two' })).status).toBe(200);
      const refused = await upload(s, 'hamlet', file, { 'X-Mock-Sandbox': 'three' });
      expect(refused).toEqual({
        status: 400,
        body: error('REALM_UPLOAD_QUOTA', "Upload would exceed your organization's upload quota."),
      });
      // Each world alone is far under its own bound.
      expect((await upload(s, 'hamlet', [{ name: 'tiny.bin', bytes: Buffer.alloc(10, 1) }])).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
