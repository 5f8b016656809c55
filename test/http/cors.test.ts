// --cors ORIGIN: the API answers the listed browser origins (preflights included); the control
// API and other origins get no CORS headers; without the option nothing changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type StartedMock } from '../../src/index.js';
import { basicAuth } from '../helpers/server.js';

const PAGE = 'http://localhost:5173';
const HAMLET = basicAuth('hamlet@zulip.com', 'waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f');

const preflight = (url: string, origin: string) =>
  fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });

describe('with --cors', () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMockServer({ cors: [PAGE, 'http://127.0.0.1:3000'] });
  });
  afterAll(() => mock.close());

  it('answers a preflight to the API from a listed origin', async () => {
    const res = await preflight(`${mock.baseUrl}/api/v1/messages`, PAGE);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,HEAD,PUT,PATCH,POST,DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('adds the headers to API answers, errors included, and in sandboxes', async () => {
    const ok = await fetch(`${mock.baseUrl}/api/v1/users/me`, { headers: { origin: PAGE, authorization: HAMLET } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(ok.headers.get('access-control-expose-headers')).toBe('Retry-After,WWW-Authenticate');
    const denied = await fetch(`${mock.baseUrl}/api/v1/users/me`, { headers: { origin: PAGE } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe(PAGE);
    const sandboxed = await fetch(`${mock.baseUrl}/sandbox/cors/api/v1/users/me`, {
      headers: { origin: PAGE, authorization: HAMLET },
    });
    expect(sandboxed.status).toBe(200);
    expect(sandboxed.headers.get('access-control-allow-origin')).toBe(PAGE);
  });

  it('gives an origin that is not listed no CORS headers', async () => {
    const res = await preflight(`${mock.baseUrl}/api/v1/messages`, 'http://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const get = await fetch(`${mock.baseUrl}/api/v1/server_settings`, { headers: { origin: 'http://evil.example' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('never opens the control API to another origin', async () => {
    const pre = await preflight(`${mock.baseUrl}/__mock/reset`, PAGE);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    // Another origin's page is refused outright (CSRF and reading defence), without CORS headers.
    const info = await fetch(`${mock.baseUrl}/__mock/info`, { headers: { origin: PAGE } });
    expect(info.status).toBe(403);
    expect(info.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('without --cors (the default, as the real server)', () => {
  let mock: StartedMock;
  beforeAll(async () => {
    mock = await startMockServer();
  });
  afterAll(() => mock.close());

  it('sends no CORS headers', async () => {
    const res = await fetch(`${mock.baseUrl}/api/v1/server_settings`, { headers: { origin: PAGE } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await preflight(`${mock.baseUrl}/api/v1/messages`, PAGE);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });
});
