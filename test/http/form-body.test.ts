// Form bodies are read two ways: plain UTF-8 forms of declared length directly (src/http/body.ts),
// everything else (chunked, compressed, other charsets) by body-parser. Both must give the same
// parameters and the same errors for the same bytes.
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, basicAuth, type TestServer } from '../helpers/server.js';
import type { ViewTable } from '../../src/domain/context.js';

const echo: Record<string, unknown>[] = [];
const views: ViewTable = {
  'update-settings': (_ctx, params) => {
    echo.push(params);
  },
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ views: { authenticated: views, open: {} } });
});
afterAll(async () => {
  await t.close();
});

type Way = 'declared length' | 'chunked' | 'gzip';

/** PATCH /settings with `body` sent one of the ways; the answer and the parameters the view got. */
function patchSettings(body: string, way: Way): Promise<{ status: number; json: any; params: unknown }> {
  const user = t.user('hamlet');
  const bytes = way === 'gzip' ? gzipSync(Buffer.from(body)) : Buffer.from(body);
  const headers: Record<string, string> = {
    authorization: basicAuth(user.email, user.api_key),
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (way === 'gzip') headers['content-encoding'] = 'gzip';
  if (way !== 'chunked') headers['content-length'] = String(bytes.length);
  echo.length = 0;
  return new Promise((resolve, reject) => {
    const req = http.request(`${t.base}/api/v1/settings`, { method: 'PATCH', headers }, (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text), params: echo[0] ?? null }));
    });
    req.on('error', reject);
    // Chunked: two writes without a length.
    if (way === 'chunked') {
      req.write(bytes.subarray(0, 3));
      req.end(bytes.subarray(3));
    } else req.end(bytes);
  });
}

const bodies: Array<[string, string]> = [
  ['plus, escapes and multi-byte text', `full_name=${encodeURIComponent('Hämlet €')}+of+Denmark`],
  ['a repeated key (the last value wins)', 'full_name=first&full_name=second'],
  ['a broken escape and bracketed keys kept as they are', 'full_name=100%ZZ&a[b]=1&__proto__=x&=empty'],
  ['a JSON value', `emojiset=google&default_language=${encodeURIComponent('"de"')}`],
];

describe('the same bytes give the same parameters, however they are sent', () => {
  it.each(bodies)('%s', async (_name, body) => {
    const direct = await patchSettings(body, 'declared length');
    const chunked = await patchSettings(body, 'chunked');
    const gzip = await patchSettings(body, 'gzip');
    expect(direct.status, JSON.stringify(direct.json)).toBe(200);
    expect(chunked).toEqual(direct);
    expect(gzip).toEqual(direct);
  });

  it('decodes as the form says', async () => {
    expect((await patchSettings(bodies[0][1], 'declared length')).params).toMatchObject({
      full_name: 'Hämlet € of Denmark',
    });
    expect((await patchSettings(bodies[1][1], 'declared length')).params).toMatchObject({ full_name: 'second' });
    const odd = await patchSettings(bodies[2][1], 'declared length');
    expect(odd.params).toMatchObject({ full_name: '100%ZZ' });
    expect(odd.json.ignored_parameters_unsupported).toEqual(['a[b]']);
  });

  it('too many parameters: the same 413 either way', async () => {
    const body = Array.from({ length: 2001 }, (_, i) => `k${i}=v`).join('&');
    const direct = await patchSettings(body, 'declared length');
    expect(direct.status).toBe(413);
    expect(direct.json).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'Malformed request body: too many parameters',
    });
    expect(await patchSettings(body, 'chunked')).toEqual(direct);
  });

  it('an empty body: no parameters either way', async () => {
    const direct = await patchSettings('', 'declared length');
    expect(direct.status).toBe(200);
    expect(direct.params).toEqual({});
    expect(await patchSettings('', 'chunked')).toEqual(direct);
  });
});
