// POST /mobile_push/e2ee/test_notification: the end-to-end encrypted test push notification.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };

describe('POST /mobile_push/e2ee/test_notification', () => {
  const sent = () =>
    t.server.world.store.sentPushNotifications
      .all()
      .map((n) => ({ user_id: n.user_id, device_id: n.device_id, kind: n.kind }));

  it('notifies every registered device of the caller when no device is named', async () => {
    const hamlet = t.user('hamlet').user_id;
    const before = t.server.clock.now();
    const r = await t.as('hamlet').post('/mobile_push/e2ee/test_notification');
    const after = t.server.clock.now();
    expect(r.body).toEqual(ok);
    expect(sent()).toEqual([
      { user_id: hamlet, device_id: 1, kind: 'test' },
      { user_id: hamlet, device_id: 2, kind: 'test' },
    ]);
    // Sent during the request; the clock's second may tick between the request and this check.
    expect(
      t.server.world.store.sentPushNotifications.all().every((n) => n.sent_at >= before && n.sent_at <= after),
    ).toBe(true);
  });

  it('notifies only the named device', async () => {
    const r = await t.as('hamlet').post('/mobile_push/e2ee/test_notification', { device_id: 2 });
    expect(r.body).toEqual(ok);
    expect(sent()).toEqual([{ user_id: t.user('hamlet').user_id, device_id: 2, kind: 'test' }]);
  });

  it('accepts push_account_id as the device below FL 468, and ignores it from 468 on', async () => {
    const r = await t
      .as('iago', { 'X-Mock-Feature-Level': '467' })
      .post('/mobile_push/e2ee/test_notification', { push_account_id: 3 });
    expect(r.body).toEqual(ok);
    expect(sent()).toEqual([{ user_id: t.user('iago').user_id, device_id: 3, kind: 'test' }]);
    const now = await t.as('iago').post('/mobile_push/e2ee/test_notification', { push_account_id: 3 });
    expect(now.body).toEqual({ ...ok, ignored_parameters_unsupported: ['push_account_id'] });
  });

  it.each([
    ['a user without devices', 'othello', {}],
    ['a device of another user', 'hamlet', { device_id: 3 }],
    ['an unknown device', 'hamlet', { device_id: 99 }],
  ])('answers NO_ACTIVE_PUSH_DEVICE for %s', async (_case, who, params) => {
    const r = await t.as(who).post('/mobile_push/e2ee/test_notification', params);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: 'No active registered push device', code: 'NO_ACTIVE_PUSH_DEVICE' });
    expect(sent()).toEqual([]);
  });
});
