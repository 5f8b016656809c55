// realm_url / realm_uri follow the address the server actually listens on (a free port here), or
// the public URL it is given, and a sandbox reached as /sandbox/NAME reports that site; links the
// server builds from the organization's URL (a delivered reminder's) follow it too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const realmUrls = async (client: Client) => {
  const settings = (await client.get('/server_settings')).body;
  const registered = (await client.post('/register', { fetch_event_types: ['realm'] })).body;
  return [settings.realm_url, settings.realm_uri, registered.realm_url];
};

describe('realm_url', () => {
  it('is the address the server listens on, not the fixture port, after a reset too', async () => {
    expect(t.base).not.toBe('http://127.0.0.1:9991');
    expect(await realmUrls(t.as('hamlet'))).toEqual([t.base, t.base, t.base]);
    await fetch(`${t.base}/__mock/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await realmUrls(t.as('hamlet'))).toEqual([t.base, t.base, t.base]);
  });

  it('of a sandbox is its /sandbox/NAME site, however the sandbox is chosen', async () => {
    const site = `${t.base}/sandbox/realm-url`;
    const byPath = new Client(site, t.user('hamlet'));
    expect(await realmUrls(byPath)).toEqual([site, site, site]);
    expect(await realmUrls(t.as('hamlet', { 'X-Mock-Sandbox': 'realm-url' }))).toEqual([site, site, site]);
  });

  it('is the public URL when the server is given one', async () => {
    const proxied = await startTestServer({ publicUrl: 'https://chat.example.com/' });
    try {
      const urls = ['https://chat.example.com', 'https://chat.example.com', 'https://chat.example.com'];
      expect(await realmUrls(proxied.as('hamlet'))).toEqual(urls);
      expect((await proxied.as('hamlet', { 'X-Mock-Sandbox': 'ci' }).get('/server_settings')).body.realm_url).toBe(
        'https://chat.example.com/sandbox/ci',
      );
    } finally {
      await proxied.close();
    }
  });

  it('starts the links of a delivered reminder', async () => {
    const cordelia = t.as('cordelia');
    const sent = await t
      .as('othello')
      .post('/messages', { type: 'stream', to: 'Denmark', topic: 'links', content: 'remind me' });
    const clock = (await (await fetch(`${t.base}/__mock/clock`)).json()).now;
    expect(
      (await cordelia.post('/reminders', { message_id: sent.body.id, scheduled_delivery_timestamp: clock + 3600 }))
        .status,
    ).toBe(200);
    await fetch(`${t.base}/__mock/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 3_601_000 }),
    });
    const dms = await cordelia.get('/messages', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'dm' }],
      apply_markdown: false,
    });
    expect(dms.body.messages[0].content).toContain(
      `[said](${t.base}/#narrow/channel/1-Denmark/topic/links/near/${sent.body.id})`,
    );
  });
});
