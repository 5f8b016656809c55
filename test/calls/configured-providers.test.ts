// POST /calls/nextcloud_talk/create, /calls/webex/create, /calls/constructorgroups/create: links
// on the services the server is configured with (the mock's command-line settings), the real
// server's error when it is not, and the levels the operations are new at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';

let configured: TestServer;
let bare: TestServer;
beforeAll(async () => {
  configured = await startTestServer({
    services: {
      nextcloudServer: 'https://cloud.example.com/nextcloud',
      webexSite: 'https://acme.webex.com/acme',
      constructorGroupsUrl: 'https://groups.example.com',
    },
  });
  bare = await startTestServer();
});
afterAll(async () => {
  await configured.close();
  await bare.close();
});

describe('POST /calls/nextcloud_talk/create', () => {
  it('answers a Talk link on the configured server, the same at the same mock time', async () => {
    configured.server.clock.freeze();
    const r = await configured.as('hamlet').post('/calls/nextcloud_talk/create', { room_name: '#Denmark > planning' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['msg', 'result', 'url']);
    // The absolute path replaces the server URL's own path, as the real server's urljoin does.
    expect(r.body.url).toMatch(/^https:\/\/cloud\.example\.com\/index\.php\/call\/[a-z0-9]{8}$/);
    expect(
      (await configured.as('hamlet').post('/calls/nextcloud_talk/create', { room_name: '#Denmark > planning' })).body
        .url,
    ).toBe(r.body.url);
    expect(
      (await configured.as('othello').post('/calls/nextcloud_talk/create', { room_name: '#Denmark > planning' })).body
        .url,
    ).not.toBe(r.body.url);
  });

  it('needs room_name, and answers as an unconfigured server without --nextcloud-server', async () => {
    expectError(
      await configured.as('hamlet').post('/calls/nextcloud_talk/create', {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'room_name' argument",
    );
    expectError(
      await bare.as('hamlet').post('/calls/nextcloud_talk/create', { room_name: 'x' }),
      400,
      'BAD_REQUEST',
      'Nextcloud Talk credentials have not been configured',
    );
  });

  it('does not exist before feature level 465', async () => {
    expectError(
      await configured
        .as('hamlet', { 'X-Mock-Feature-Level': '464' })
        .post('/calls/nextcloud_talk/create', { room_name: 'x' }),
      404,
      'BAD_REQUEST',
      'Not Found',
    );
  });
});

describe('POST /calls/webex/create', () => {
  it('answers a meeting link on the configured Webex site', async () => {
    const r = await configured.as('hamlet').post('/calls/webex/create');
    expect(r.status).toBe(200);
    expect(r.body.url).toMatch(/^https:\/\/acme\.webex\.com\/acme\/j\.php\?MTID=m[0-9a-f]{32}$/);
  });

  it('answers as an unconfigured server without --webex-site, and does not exist before 493', async () => {
    expectError(
      await bare.as('hamlet').post('/calls/webex/create'),
      400,
      'BAD_REQUEST',
      'Webex credentials have not been configured',
    );
    expectError(
      await configured.as('hamlet', { 'X-Mock-Feature-Level': '492' }).post('/calls/webex/create'),
      404,
      'BAD_REQUEST',
      'Not Found',
    );
  });
});

describe('POST /calls/constructorgroups/create', () => {
  it("answers the caller's default room: the same every time, another for another user", async () => {
    const r = await configured.as('hamlet').post('/calls/constructorgroups/create');
    expect(r.status).toBe(200);
    expect(r.body.url).toMatch(/^https:\/\/groups\.example\.com\/room\/[0-9a-f]{16}$/);
    configured.server.clock.advance(60_000);
    expect((await configured.as('hamlet').post('/calls/constructorgroups/create')).body.url).toBe(r.body.url);
    expect((await configured.as('othello').post('/calls/constructorgroups/create')).body.url).not.toBe(r.body.url);
  });

  it('answers as an unconfigured server without --constructor-groups-url, and does not exist before 460', async () => {
    expectError(
      await bare.as('hamlet').post('/calls/constructorgroups/create'),
      400,
      'BAD_REQUEST',
      'Constructor Groups credentials have not been configured',
    );
    expectError(
      await configured.as('hamlet', { 'X-Mock-Feature-Level': '459' }).post('/calls/constructorgroups/create'),
      404,
      'BAD_REQUEST',
      'Not Found',
    );
  });
});
