// The outbox through the control API and its typed client: filters, clearing, per-sandbox
// isolation, and the live server-sent event feed.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { ControlClient } from '../../src/control/client.js';

let t: TestServer;
let control: ControlClient;
serverPerTest((server) => {
  t = server;
  control = new ControlClient(server.base);
});

const invite = (who: string, emails: string) => t.as(who).post('/invites', { invitee_emails: emails, stream_ids: [] });

describe('GET/DELETE /__mock/outbox', () => {
  it('filters by kind, user (address or ID), device and since_id, newest first, and clears', async () => {
    await invite('iago', 'a@example.com, b@example.com');
    await invite('iago', 'c@example.com');
    const all = await control.outbox.list();
    expect(all.count).toBe(3);
    expect(all.items.map((i) => i.id)).toEqual([3, 2, 1]);
    expect((await control.outbox.list({ user: 'C@example.com' })).items.map((i: any) => i.to)).toEqual([
      'c@example.com',
    ]);
    expect((await control.outbox.list({ kind: 'push' })).count).toBe(0);
    expect((await control.outbox.list({ since_id: 2 })).items.map((i) => i.id)).toEqual([3]);
    expect(await control.outbox.list({ limit: 1 })).toMatchObject({ count: 3, items: [{ id: 3 }] });
    expect((await control.outbox.list({ device: 1 })).count).toBe(0);
    expect((await control.outbox.list({ user: 4 })).count).toBe(0);
    await control.outbox.clear();
    expect((await control.outbox.list()).count).toBe(0);
  });

  it('keeps each sandbox its own outbox', async () => {
    const sandbox = control.sandbox('other');
    await t
      .as('iago', { 'X-Mock-Sandbox': 'other' })
      .post('/invites', { invitee_emails: 's@example.com', stream_ids: [] });
    expect((await sandbox.outbox.list()).count).toBe(1);
    expect((await control.outbox.list()).count).toBe(0);
  });

  it('forgets what is scheduled on a reset', async () => {
    await control.clock.freeze();
    await t
      .as('iago')
      .post('/invites', { invitee_emails: 'r@example.com', stream_ids: [], invite_expires_in_minutes: 60 * 24 * 10 });
    await control.reset();
    await control.clock.advance(9 * 86_400_000);
    expect((await control.outbox.list({ kind: 'email' })).items.map((i: any) => i.template)).toEqual(['invitation']);
  });
});

describe('GET /__mock/outbox/stream', () => {
  it('sends each new item as an `item` event, and replays what a reconnecting reader missed', async () => {
    await invite('iago', 'first@example.com');
    const abort = new AbortController();
    const res = await fetch(`${t.base}/__mock/outbox/stream?since_id=0`, { signal: abort.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) text += new TextDecoder().decode((await reader.read()).value);
    };
    await readUntil('event: ready');
    expect(text).toContain('first@example.com');
    await invite('iago', 'second@example.com');
    await readUntil('second@example.com');
    const events = text.split('\n\n').filter((b) => b.includes('event: item'));
    expect(events.map((b) => JSON.parse(b.split('data: ')[1]).to)).toEqual(['first@example.com', 'second@example.com']);
    expect(events[1]).toContain('id: 2');
    abort.abort();
  });
});
