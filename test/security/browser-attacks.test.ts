// Browser attacks on a mock left running on a laptop: DNS rebinding (a foreign Host), cross-site
// requests to the control API (Origin, Sec-Fetch-Site, text/plain bodies, query strings), and
// framing of the inspector. Sent as raw HTTP, with exactly the headers a browser would send.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type StartedMock } from '../../src/index.js';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const framing = body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...framing, ...headers },
        setHost: false,
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let parsed: any = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode!, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const HAMLET = `Basic ${Buffer.from('hamlet@zulip.com:waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f').toString('base64')}`;

describe('Host header (DNS rebinding)', () => {
  let mock: StartedMock;
  let port: string;
  beforeAll(async () => {
    mock = await startMockServer({ allowedHosts: ['mock.test', '.dev.test'] });
    port = new URL(mock.baseUrl).port;
  });
  afterAll(() => mock.close());

  it.each(['evil.example', '127.0.0.1.nip.io', '0.0.0.0', '[::ffff:7f00:1]', '127.1', 'localhost.evil.example'])(
    'refuses %s on the API and the control API',
    async (name) => {
      const host = `${name}:${port}`;
      const state = await raw(mock.baseUrl, 'GET', '/__mock/state', { Host: host });
      expect(state.status).toBe(403);
      expect(state.body).toEqual({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: `Host '${host}' is not allowed: this server answers only the names of the address it listens on (start it with --allowed-host ${name} to allow this one)`,
      });
      expect(JSON.stringify(state.body)).not.toContain('api_key');
      const me = await raw(mock.baseUrl, 'GET', '/api/v1/users/me', { Host: host, Authorization: HAMLET });
      expect(me.status).toBe(403);
      const ui = await raw(mock.baseUrl, 'GET', '/__mock/ui/', { Host: host });
      expect(ui.status).toBe(403);
    },
  );

  it('refuses a request without Host (HTTP/1.1 requires one: Node answers 400 itself)', async () => {
    const res = await raw(mock.baseUrl, 'GET', '/api/v1/server_settings', {});
    expect(res.status).toBe(400);
  });

  it.each(['127.0.0.1', 'localhost', 'app.localhost', '[::1]', 'mock.test', 'a.dev.test', 'dev.test', 'MOCK.TEST'])(
    'answers %s',
    async (name) => {
      const res = await raw(mock.baseUrl, 'GET', '/api/v1/users/me', {
        Host: `${name}:${port}`,
        Authorization: HAMLET,
      });
      expect(res.status).toBe(200);
      expect(res.body.email).toBe('hamlet@zulip.com');
    },
  );

  it('decides each Host value the same way again after a flood of others (decisions are remembered, boundedly)', async () => {
    const status = async (name: string) =>
      (await raw(mock.baseUrl, 'GET', '/api/v1/users/me', { Host: `${name}:${port}`, Authorization: HAMLET })).status;
    expect([await status('mock.test'), await status('evil.example')]).toEqual([200, 403]);
    for (let i = 0; i < 100; i++)
      expect(await status(i % 2 ? `x${i}.dev.test` : `x${i}.evil.example`)).toBe(i % 2 ? 200 : 403);
    expect([await status('mock.test'), await status('evil.example')]).toEqual([200, 403]);
  });
});

describe('control API against cross-site requests (CSRF)', () => {
  let mock: StartedMock;
  let host: string;
  beforeAll(async () => {
    mock = await startMockServer();
    host = new URL(mock.baseUrl).host;
  });
  afterAll(() => mock.close());

  it('refuses a page of another origin, and another port of the same host', async () => {
    for (const origin of ['http://evil.example', `http://localhost:5173`, 'null', `https://${host}`]) {
      const res = await raw(
        mock.baseUrl,
        'POST',
        '/__mock/reset',
        { Host: host, Origin: origin, 'Content-Type': 'application/json' },
        '{}',
      );
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: `Cross-origin requests to the control API are refused (Origin: ${origin}, Sec-Fetch-Site: none)`,
      });
    }
    const site = await raw(mock.baseUrl, 'GET', '/__mock/state', { Host: host, 'Sec-Fetch-Site': 'cross-site' });
    expect(site.status).toBe(403);
    expect(site.body.msg).toBe(
      'Cross-origin requests to the control API are refused (Origin: none, Sec-Fetch-Site: cross-site)',
    );
  });

  it('answers its own origin (the inspector)', async () => {
    const res = await raw(mock.baseUrl, 'GET', '/__mock/info', {
      Host: host,
      Origin: `http://${host}`,
      'Sec-Fetch-Site': 'same-origin',
    });
    expect(res.status).toBe(200);
  });

  it('refuses simple (form and text/plain) state changes and changes nothing', async () => {
    const before = (await mock.control.info()).zulip_feature_level;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await raw(
        mock.baseUrl,
        'POST',
        '/__mock/feature-level',
        { Host: host, 'Content-Type': type },
        '{"level":1}',
      );
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: `The control API takes POST requests only with Content-Type: application/json (got ${type})`,
      });
    }
    const none = await raw(mock.baseUrl, 'POST', '/__mock/reset', { Host: host });
    expect(none.status).toBe(415);
    expect(none.body.msg).toBe(
      'The control API takes POST requests only with Content-Type: application/json (got none)',
    );
    expect((await mock.control.info()).zulip_feature_level).toBe(before);
  });

  it('never reads state changes from the query string', async () => {
    const clock = await mock.control.clock.get();
    const calls: Array<[string, string]> = [
      ['POST', '/__mock/clock?advance_ms=86400000'],
      ['POST', '/__mock/feature-level?level=1'],
      ['POST', `/__mock/scenarios?definition=${encodeURIComponent('{"name":"x","rules":[]}')}`],
      ['DELETE', '/__mock/scenarios?name=x'],
    ];
    for (const [method, path] of calls) {
      const res = await raw(mock.baseUrl, method, path, { Host: host, 'Content-Type': 'application/json' }, '{}');
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(
        `The control API reads the parameters of ${method} requests from the JSON body only, not the query string`,
      );
    }
    expect((await mock.control.clock.get()).now_ms - clock.now_ms).toBeLessThan(60_000);
    expect((await mock.control.info()).zulip_feature_level).toBeGreaterThan(1);
  });

  it('takes a JSON DELETE without a body (deactivate all)', async () => {
    const res = await raw(mock.baseUrl, 'DELETE', '/__mock/scenarios', {
      Host: host,
      'Content-Type': 'application/json',
    });
    expect(res.body).toEqual({ result: 'success', msg: '', deactivated: [] });
  });

  it('deactivates a scenario named in the JSON body', async () => {
    await mock.control.scenarios.activate('rate-limited');
    const res = await raw(
      mock.baseUrl,
      'DELETE',
      '/__mock/scenarios',
      { Host: host, 'Content-Type': 'application/json' },
      '{"name":"rate-limited"}',
    );
    expect(res.body).toEqual({ result: 'success', msg: '', deactivated: ['rate-limited'] });
  });

  it('serves the inspector unframeable, under a strict content security policy', async () => {
    expect((await raw(mock.baseUrl, 'GET', '/__mock/ui', { Host: host })).headers['x-frame-options']).toBe('DENY');
    for (const path of ['/__mock/ui/', '/__mock/ui/main.js']) {
      const res = await raw(mock.baseUrl, 'GET', path, { Host: host });
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).toContain("default-src 'none'; script-src 'self'");
    }
  });
});
