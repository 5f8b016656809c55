// Push notifications in the outbox: who is notified and who is not (each rule), the payload of
// each device form (Android by FCM token, iOS by APNs token, end-to-end encrypted) and level,
// `remove` when the messages are read or an edit takes the mention away, and --push-target.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { registerQueue } from '../helpers/events.js';
import { sendMessage } from '../helpers/messages.js';
import { ControlClient } from '../../src/control/client.js';
import type { OutboxItem } from '../../src/domain/outbox/outbox.js';

let t: TestServer;
let control: ControlClient;
const store = () => t.server.world.store;
const id = (who: string) => t.user(who).user_id;

async function start(options = {}) {
  t = await startTestServer(options);
  control = new ControlClient(t.base);
  // Othello's phones, registered the legacy way by token.
  await t.as('othello').post('/users/me/android_gcm_reg_id', { token: 'fcm-token-othello' });
  await t.as('othello').post('/users/me/apns_device_token', { token: 'c0ffee00', appid: 'org.zulip.Zulip' });
}
afterEach(async () => {
  await t.close();
});

const send = (who: string, params: Record<string, unknown>, headers?: Record<string, string>) =>
  sendMessage(t, who, params, headers);
const pushes = async (user?: string): Promise<any[]> =>
  (await control.outbox.list({ kind: 'push', ...(user ? { user: id(user) } : {}) })).items.reverse();
const notified = async () =>
  [
    ...new Set(
      (await pushes())
        .filter((p) => p.event === 'message')
        .map((p) => store().users.get(p.user_id)!.email.split('@')[0]),
    ),
  ].sort();
const setting = (who: string, name: string, value: unknown) => t.as(who).patch('/settings', { [name]: value });

describe('who is notified', () => {
  beforeEach(() => start());

  it('notifies the recipients of a direct message on each of their devices, never the sender', async () => {
    const messageId = await send('iago', { type: 'direct', to: [id('othello'), id('hamlet')], content: 'hello' });
    const items = await pushes();
    expect(items.map((p) => [p.user_id, p.device_id, p.form])).toEqual(
      [
        [id('hamlet'), 1, 'e2ee'],
        [id('hamlet'), 2, 'e2ee'],
        [id('othello'), expect.any(Number), 'android'],
        [id('othello'), expect.any(Number), 'ios'],
      ].sort((a: any, b: any) => a[0] - b[0]),
    );
    expect(items.every((p) => p.message_ids[0] === messageId && p.event === 'message')).toBe(true);
    // Iago has a device too (device 3), but sent the message.
    expect(items.some((p) => p.user_id === id('iago'))).toBe(false);
  });

  it('notifies mentioned users, and only them, in a channel without push settings', async () => {
    await send('iago', {
      type: 'stream',
      to: 'Verona',
      topic: 'plans',
      content: '@**Othello, the Moor of Venice** look',
    });
    expect(await notified()).toEqual(['othello']);
  });

  it('notifies the members of a mentioned group, naming the group', async () => {
    const group = store().userGroups.find((g) => g.name === 'hamletcharacters')!;
    store().userGroups.update(group, { direct_members: [...new Set([...group.direct_members, id('othello')])] });
    await send('iago', { type: 'stream', to: 'Verona', topic: 'plans', content: '@*hamletcharacters* look' });
    const [android] = (await pushes('othello')).filter((p) => p.form === 'android');
    expect(android.payload.data).toMatchObject({
      mentioned_user_group_id: group.id,
      mentioned_user_group_name: 'hamletcharacters',
    });
    const [ios] = (await pushes('othello')).filter((p) => p.form === 'ios');
    expect(ios.payload.alert.subtitle).toBe('Iago mentioned @hamletcharacters:');
  });

  it('follows the channel push setting, which a muted channel or topic silences (not mentions)', async () => {
    // Hamlet has push notifications on for Denmark, and muted its topic Copenhagen.
    await send('iago', { type: 'stream', to: 'Denmark', topic: 'news', content: 'plain' });
    expect(await notified()).toEqual(['hamlet']);
    await control.outbox.clear();
    await send('iago', { type: 'stream', to: 'Denmark', topic: 'Copenhagen', content: 'plain' });
    expect(await notified()).toEqual([]);
    await send('iago', { type: 'stream', to: 'Denmark', topic: 'Copenhagen', content: '@**King Hamlet** mentioned' });
    expect(await notified()).toEqual(['hamlet']);
  });

  it('notifies wildcard mentions unless the channel is muted, and by followed-topic settings', async () => {
    // Othello muted Scotland (but unmuted its topic Edinburgh).
    await send('iago', { type: 'stream', to: 'Scotland', topic: 'elsewhere', content: '@**all** hello' });
    expect(await notified()).not.toContain('othello');
    await send('iago', { type: 'stream', to: 'Scotland', topic: 'Edinburgh', content: '@**all** hello' });
    expect(await notified()).toContain('othello');
    const [ios] = (await pushes('othello')).filter((p) => p.form === 'ios');
    expect(ios.payload.alert.subtitle).toBe('Iago mentioned everyone:');
    await setting('othello', 'wildcard_mentions_notify', false);
    await control.outbox.clear();
    await send('iago', { type: 'stream', to: 'Scotland', topic: 'Edinburgh', content: '@**all** again' });
    expect(await notified()).not.toContain('othello');
  });

  it('words a topic wildcard mention as a channel one in the iOS subtitle', async () => {
    await send('othello', { type: 'stream', to: 'Scotland', topic: 'Edinburgh', content: 'I was here' });
    await control.outbox.clear();
    await send('iago', { type: 'stream', to: 'Scotland', topic: 'Edinburgh', content: '@**topic** hello' });
    const [ios] = (await pushes('othello')).filter((p) => p.form === 'ios');
    expect(ios.payload.alert.subtitle).toBe('Iago mentioned everyone:');
  });

  it('notifies followed topics by enable_followed_topic_push_notifications', async () => {
    // Hamlet follows Verona > greetings.
    await send('iago', { type: 'stream', to: 'Verona', topic: 'greetings', content: 'hi' });
    expect(await notified()).toEqual(['hamlet']);
    await setting('hamlet', 'enable_followed_topic_push_notifications', false);
    await control.outbox.clear();
    await send('iago', { type: 'stream', to: 'Verona', topic: 'greetings', content: 'hi again' });
    expect(await notified()).toEqual([]);
  });

  it('never notifies about a muted sender, or with offline push notifications off', async () => {
    await t.as('othello').post(`/users/me/muted_users/${id('iago')}`);
    await setting('hamlet', 'enable_offline_push_notifications', false);
    await send('iago', { type: 'direct', to: [id('othello'), id('hamlet')], content: 'hello' });
    expect(await notified()).toEqual([]);
  });

  it('skips users who are here (a message queue and recent activity) unless online push notifications are on', async () => {
    await setting('othello', 'enable_online_push_notifications', false);
    await registerQueue(t, 'othello', ['message']);
    await t.as('othello').post('/users/me/presence', { status: 'active' });
    await send('iago', { type: 'direct', to: [id('othello')], content: 'you are here' });
    expect(await notified()).toEqual([]);
    // Idle for more than 140 seconds: away again.
    await control.clock.advance(141_000);
    await send('iago', { type: 'direct', to: [id('othello')], content: 'still there?' });
    expect(await notified()).toEqual(['othello']);
    await control.outbox.clear();
    // A queue that does not take messages counts as away.
    await setting('othello', 'enable_online_push_notifications', true);
    await t.as('othello').post('/users/me/presence', { status: 'active' });
    await send('iago', { type: 'direct', to: [id('othello')], content: 'online pushes on' });
    expect(await notified()).toEqual(['othello']);
  });

  it('sends nothing when the organization has push notifications off', async () => {
    store().updateRealm({ push_notifications_enabled: false });
    await send('iago', { type: 'direct', to: [id('othello')], content: 'hello' });
    expect(await notified()).toEqual([]);
  });
});

describe('payload forms', () => {
  beforeEach(() => start());

  it('builds the Android data payload and the Apple payload of a channel mention', async () => {
    const messageId = await send('iago', {
      type: 'stream',
      to: 'Verona',
      topic: 'plans',
      content: '@**Othello, the Moor of Venice** come **now** & bring <b>',
    });
    const items = await pushes('othello');
    const android = items.find((p) => p.form === 'android')!;
    const realm = store().realm;
    const iago = t.user('iago');
    const base = {
      server: new URL(realm.url).host,
      realm_id: realm.id,
      realm_name: 'Zulip Dev',
      realm_uri: realm.url,
      realm_url: realm.url,
      user_id: id('othello'),
    };
    const message = store().messages.get(messageId)!;
    expect(android.payload).toEqual({
      data: {
        ...base,
        sender_id: iago.user_id,
        sender_email: iago.email,
        time: message.timestamp,
        recipient_type: 'stream',
        stream: 'Verona',
        stream_id: 3,
        topic: 'plans',
        event: 'message',
        zulip_message_id: messageId,
        content: '@Othello, the Moor of Venice come now & bring <b>',
        content_truncated: false,
        sender_full_name: 'Iago',
        sender_avatar_url: expect.stringContaining('https://secure.gravatar.com/avatar/'),
      },
      options: { priority: 'high' },
    });
    const ios = items.find((p) => p.form === 'ios')!;
    expect(ios.payload).toEqual({
      alert: {
        title: '#Verona > plans',
        subtitle: 'Iago mentioned you:',
        body: '@Othello, the Moor of Venice come now & bring <b>',
      },
      sound: 'default',
      badge: 0,
      custom: {
        zulip: {
          ...base,
          sender_id: iago.user_id,
          sender_email: iago.email,
          time: message.timestamp,
          recipient_type: 'stream',
          stream: 'Verona',
          stream_id: 3,
          topic: 'plans',
          message_ids: [messageId],
        },
      },
    });
  });

  it('titles direct messages by sender (one to one) or by participants (group), and cuts long content', async () => {
    await send('iago', { type: 'direct', to: [id('othello')], content: 'x'.repeat(250) });
    const [android, ios] = [
      (await pushes('othello')).find((p) => p.form === 'android')!,
      (await pushes('othello')).find((p) => p.form === 'ios')!,
    ];
    expect(android.payload.data).toMatchObject({
      recipient_type: 'private',
      content: `${'x'.repeat(200)}…`,
      content_truncated: true,
    });
    expect(android.payload.data).not.toHaveProperty('pm_users');
    expect(ios.payload.alert).toMatchObject({ title: 'Iago', subtitle: '' });
    await control.outbox.clear();
    await send('iago', { type: 'direct', to: [id('othello'), id('cordelia')], content: 'group' });
    const group = (await pushes('othello')).find((p) => p.form === 'ios')!;
    const ids = [id('iago'), id('othello'), id('cordelia')].sort((a, b) => a - b);
    expect(group.payload.alert).toMatchObject({
      title: ["Cordelia, Lear's daughter", 'Iago', 'Othello, the Moor of Venice'].join(', '),
      subtitle: 'Iago:',
    });
    expect(group.payload.custom.zulip.pm_users).toBe(ids.join(','));
  });

  it('gives E2EE devices the encrypted form, with recipient_user_ids from FL 429 and pm_users before', async () => {
    const messageId = await send('iago', { type: 'direct', to: [id('hamlet'), id('othello')], content: 'secret' });
    const [e2ee] = (await pushes('hamlet')).filter((p) => p.device_id === 1);
    const ids = [id('iago'), id('hamlet'), id('othello')].sort((a, b) => a - b);
    expect(e2ee.payload).toEqual({
      device_id: 1,
      fcm_priority: 'high',
      payload: {
        push_account_id: 1,
        encrypted_data: null,
        plaintext: {
          type: 'message',
          message_id: messageId,
          realm_name: 'Zulip Dev',
          realm_url: store().realm.url,
          user_id: id('hamlet'),
          sender_id: id('iago'),
          sender_full_name: 'Iago',
          sender_avatar_url: expect.any(String),
          time: expect.any(Number),
          content: 'secret',
          recipient_type: 'direct',
          recipient_user_ids: ids,
        },
      },
    });
    const [apple] = (await pushes('hamlet')).filter((p) => p.device_id === 2);
    expect(apple.payload).toMatchObject({
      http_headers: { apns_priority: 10, apns_push_type: 'alert' },
      payload: { aps: { 'mutable-content': 1, alert: { title: 'New notification' } } },
    });
    await control.outbox.clear();
    await send(
      'iago',
      { type: 'direct', to: [id('hamlet'), id('othello')], content: 'older' },
      { 'X-Mock-Feature-Level': '420' },
    );
    const [older] = (await pushes('hamlet')).filter((p) => p.device_id === 1);
    expect(older.payload.payload.plaintext).toMatchObject({ pm_users: ids.join(',') });
    expect(older.payload.payload.plaintext).not.toHaveProperty('recipient_user_ids');
    await control.outbox.clear();
    // Before FL 413 the server had no E2EE notifications: devices registered by token only.
    await send(
      'iago',
      { type: 'direct', to: [id('hamlet'), id('othello')], content: 'oldest' },
      { 'X-Mock-Feature-Level': '400' },
    );
    expect((await pushes()).map((p) => p.form).sort()).toEqual(['android', 'ios']);
  });
});

describe('remove', () => {
  beforeEach(() => start());

  it('takes a notification back on every device when the message is read', async () => {
    const messageId = await send('iago', { type: 'direct', to: [id('othello')], content: 'read me' });
    await control.outbox.clear();
    await t.as('othello').post('/messages/flags', { messages: [messageId], op: 'add', flag: 'read' });
    const items = await pushes('othello');
    expect(items.map((p) => [p.form, p.event, p.message_ids])).toEqual([
      ['android', 'remove', [messageId]],
      ['ios', 'remove', [messageId]],
    ]);
    expect(items[0].payload).toMatchObject({
      data: { event: 'remove', zulip_message_ids: String(messageId), zulip_message_id: messageId },
      options: { priority: 'normal' },
    });
    expect(items[1].payload).toMatchObject({
      badge: 0,
      custom: { zulip: { event: 'remove', zulip_message_ids: String(messageId) } },
    });
    // Only once.
    await t.as('othello').post('/messages/flags', { messages: [messageId], op: 'remove', flag: 'read' });
    await t.as('othello').post('/messages/flags', { messages: [messageId], op: 'add', flag: 'read' });
    expect(await pushes('othello')).toHaveLength(2);
  });

  it('takes a mention notification back when an edit removes the mention', async () => {
    const messageId = await send('iago', {
      type: 'stream',
      to: 'Verona',
      topic: 'plans',
      content: '@**Othello, the Moor of Venice** look',
    });
    await control.outbox.clear();
    await t.as('iago').patch(`/messages/${messageId}`, { content: 'never mind' });
    expect((await pushes('othello')).map((p) => p.event)).toEqual(['remove', 'remove']);
  });
});

describe('--push-target', () => {
  it('POSTs each push notification to a local listener', async () => {
    const received: Array<{ sandbox: string; item: OutboxItem }> = [];
    const listener = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ sandbox: String(req.headers['x-mock-sandbox']), item: JSON.parse(body) });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      await start({ pushTarget: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/push` });
      const messageId = await send('iago', { type: 'direct', to: [id('othello')], content: 'ping' });
      for (let i = 0; i < 100 && received.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(received.map((r) => [r.sandbox, r.item.kind, (r.item as any).form, (r.item as any).message_ids])).toEqual([
        ['default', 'push', 'android', [messageId]],
        ['default', 'push', 'ios', [messageId]],
      ]);
    } finally {
      listener.close();
    }
  });

  it('refuses a target beyond loopback unless its host is allowed', async () => {
    await expect(startTestServer({ pushTarget: 'http://example.com/push' })).rejects.toThrow(
      'is not a loopback address',
    );
    t = await startTestServer({ pushTarget: 'http://example.com/push', pushTargetHosts: ['example.com'] });
  });
});

describe('remove, batched', () => {
  beforeEach(() => start());

  it('takes back every notified message marked read at once in one notification per device, and deleted ones', async () => {
    const a = await send('iago', { type: 'direct', to: [id('othello')], content: 'one' });
    const b = await send('iago', { type: 'direct', to: [id('othello')], content: 'two' });
    const c = await send('iago', { type: 'direct', to: [id('othello')], content: 'three' });
    await control.outbox.clear();
    await t.as('othello').post('/messages/flags', { messages: [a, b], op: 'add', flag: 'read' });
    const removes = await pushes('othello');
    expect(removes.map((p) => [p.form, p.message_ids])).toEqual([
      ['android', [a, b]],
      ['ios', [a, b]],
    ]);
    expect(removes[0].payload.data.zulip_message_ids).toBe(`${a},${b}`);
    await control.outbox.clear();
    expect((await t.as('iago').delete(`/messages/${c}`)).status).toBe(200);
    expect((await pushes('othello')).map((p) => [p.event, p.message_ids])).toEqual([
      ['remove', [c]],
      ['remove', [c]],
    ]);
  });
});
