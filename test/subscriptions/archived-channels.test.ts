// Archived channels in the subscription lists, at 10.2's level (372) and the newest: GET
// /users/me/subscriptions never lists them (the real server's gather_subscriptions reads active
// channels only, 10.2 through the newest), and POST /register lists them in `subscriptions`,
// `unsubscribed` and `never_subscribed` only to a client with the archived_channels capability.
// The fixture's "Old Rome" (9) is archived, and hamlet is subscribed to it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ControlClient } from '../../src/control/client.js';
import { NEWEST_FEATURE_LEVEL } from '../../src/domain/server-info.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await new ControlClient(t.base).reset();
});

const OLD_ROME = 9;
const ROME = 5;
const ids = (list: Array<{ stream_id: number }>) => list.map((s) => s.stream_id);

describe.each([372, NEWEST_FEATURE_LEVEL])('archived channels at FL %i', (level) => {
  const as = (who: string) => t.as(who, { 'X-Mock-Feature-Level': String(level) });
  const register = async (who: string, archived: boolean) => {
    const r = await as(who).post('/register', {
      fetch_event_types: ['subscription'],
      client_capabilities: { archived_channels: archived },
    });
    expect(r.status).toBe(200);
    return r.body;
  };

  it('GET /users/me/subscriptions leaves an archived channel out, also once a subscribed channel is archived', async () => {
    const before = (await as('hamlet').get('/users/me/subscriptions')).body.subscriptions;
    expect(ids(before)).not.toContain(OLD_ROME);
    expect(ids(before)).toContain(ROME);
    expect((await t.as('iago').delete(`/streams/${ROME}`)).body.result).toBe('success');
    const after = (await as('hamlet').get('/users/me/subscriptions', { include_subscribers: true })).body.subscriptions;
    expect(ids(after)).toEqual(ids(before).filter((id) => id !== ROME));
  });

  it('POST /register lists archived subscriptions only with the archived_channels capability', async () => {
    const withCap = await register('hamlet', true);
    expect(withCap.subscriptions.find((s: any) => s.stream_id === OLD_ROME)).toMatchObject({ is_archived: true });
    const without = await register('hamlet', false);
    expect(ids(without.subscriptions)).not.toContain(OLD_ROME);
    expect(ids(without.subscriptions)).toEqual(
      ids((await as('hamlet').get('/users/me/subscriptions')).body.subscriptions),
    );
  });

  it('unsubscribed and never_subscribed carry archived channels only with the capability', async () => {
    expect((await as('hamlet').delete('/users/me/subscriptions', { subscriptions: ['Rome'] })).body.result).toBe(
      'success',
    );
    expect((await t.as('iago').delete(`/streams/${ROME}`)).body.result).toBe('success');
    const subscribedToOldRome = t.server.world.store.subscriptions.filter((s) => s.stream_id === OLD_ROME);
    const outsider = ['othello', 'cordelia', 'prospero'].find(
      (who) => !subscribedToOldRome.some((s) => s.user_id === t.user(who).user_id),
    )!;
    expect(ids((await register('hamlet', true)).unsubscribed)).toContain(ROME);
    expect(ids((await register('hamlet', false)).unsubscribed)).not.toContain(ROME);
    expect(ids((await register(outsider, true)).never_subscribed)).toContain(OLD_ROME);
    expect(ids((await register(outsider, false)).never_subscribed)).not.toContain(OLD_ROME);
  });
});
