// require_e2ee_push_notifications (FL 409): an organization that requires end-to-end encrypted
// push notifications gets legacy ones that say "New message" instead of the text (409-499 and
// 502-503), and none at all at 500-501 (12.1's backport) and from 504; E2EE devices get the text
// either way.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sendMessage } from '../helpers/messages.js';
import { ControlClient } from '../../src/control/client.js';

let t: TestServer;
let control: ControlClient;
const id = (who: string) => t.user(who).user_id;

beforeEach(async () => {
  t = await startTestServer();
  control = new ControlClient(t.base);
  // Othello's phones, registered the legacy way by token; Hamlet's devices are E2EE ones.
  await t.as('othello').post('/users/me/android_gcm_reg_id', { token: 'fcm-token-othello' });
  await t.as('othello').post('/users/me/apns_device_token', { token: 'c0ffee00', appid: 'org.zulip.Zulip' });
});
afterEach(async () => {
  await t.close();
});

const pushes = async (): Promise<any[]> => (await control.outbox.list({ kind: 'push' })).items.reverse();
const dm = (level?: number) =>
  sendMessage(
    t,
    'iago',
    { type: 'direct', to: [id('othello'), id('hamlet')], content: 'the secret' },
    level === undefined ? undefined : { 'X-Mock-Feature-Level': String(level) },
  );

describe('require_e2ee_push_notifications', () => {
  it('off (the dev organization): legacy notifications carry the text', async () => {
    await dm();
    const android = (await pushes()).find((p) => p.form === 'android');
    expect(android.payload.data.content).toBe('the secret');
  });

  it('on, from FL 500: no legacy notification at all; E2EE devices still get theirs', async () => {
    await t.as('iago').patch('/realm', { require_e2ee_push_notifications: true });
    await dm();
    const forms = (await pushes()).map((p) => [p.user_id, p.form]);
    expect(forms.filter(([user]) => user === id('othello'))).toEqual([]);
    expect(forms.filter(([user]) => user === id('hamlet')).every(([, form]) => form === 'e2ee')).toBe(true);
    expect(forms.length).toBeGreaterThan(0);
  });

  it.each([499, 502, 503])(
    'on, at FL %i (409-499 and 502-503): legacy notifications say "New message" instead of the text',
    async (level) => {
      await t.as('iago').patch('/realm', { require_e2ee_push_notifications: true });
      await dm(level);
      const items = await pushes();
      const android = items.find((p) => p.form === 'android');
      const ios = items.find((p) => p.form === 'ios');
      expect(android.payload.data).toMatchObject({ content: 'New message', content_truncated: false });
      expect(ios.payload.alert.body).toBe('New message');
      const e2ee = items.find((p) => p.form === 'e2ee');
      expect(e2ee.plaintext.content).toBe('the secret');
    },
  );

  it.each([500, 501, 504])('on, at FL %i (12.1 at 500-501, 13.0 from 504): no legacy notification', async (level) => {
    await t.as('iago').patch('/realm', { require_e2ee_push_notifications: true });
    await dm(level);
    const forms = (await pushes()).map((p) => [p.user_id, p.form]);
    expect(forms.filter(([user]) => user === id('othello'))).toEqual([]);
    expect(forms.some(([user, form]) => user === id('hamlet') && form === 'e2ee')).toBe(true);
  });
});
