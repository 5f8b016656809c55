// End-to-end encrypted push notifications, opened as the phone opens them: encrypted_data is the
// base64 of a 24-byte nonce and a libsodium secretbox sealed with the 32 bytes after the push
// key's 0x31 tag. Decrypting with the key the test registered gives the JSON the real server
// documents (api_docs/mobile-notifications.md) and equals the item's `plaintext`; another key or
// a changed byte fails. The push request around it, per device kind and level, and the test
// notification.
import { randomBytes } from 'node:crypto';
import { secretbox } from '@noble/ciphers/salsa.js';
import { describe, expect, it } from 'vitest';
import { outboxSuite } from '../helpers/outbox-suite.js';

const suite = outboxSuite();

const id = (who: string) => suite.t.user(who).user_id;
const store = () => suite.t.server.world.store;

/** A fresh push key as the official app makes one: the secretbox tag 0x31, then 32 random bytes. */
const newPushKey = () => Buffer.concat([Buffer.from([0x31]), randomBytes(32)]).toString('base64');

/** What the app does with a notification: split the nonce off, open the box, parse the JSON. */
function decrypt(pushKey: string, encryptedData: string): unknown {
  const key = Buffer.from(pushKey, 'base64');
  expect([key.length, key[0]]).toEqual([33, 0x31]);
  const bytes = Buffer.from(encryptedData, 'base64');
  const opened = secretbox(key.subarray(1), bytes.subarray(0, 24)).open(bytes.subarray(24));
  return JSON.parse(Buffer.from(opened).toString('utf8'));
}

/** A logged-in device of `who`, registered for E2EE notifications with `pushKey` (FL 468). */
async function registerDevice(who: string, pushKey: string, tokenKind: 'fcm' | 'apns'): Promise<number> {
  const deviceId = (await suite.t.as(who).post('/register_client_device')).body.device_id;
  const r = await suite.t.as(who).post('/mobile_push/register', {
    device_id: deviceId,
    push_key: pushKey,
    push_key_id: 77,
    token_kind: tokenKind,
    token_id: 'hGsEWGmyyfI=',
    bouncer_public_key: 'bouncer-public-key',
    encrypted_push_registration: 'sealed',
  });
  expect(r.body.result, JSON.stringify(r.body)).toBe('success');
  return deviceId;
}

async function send(params: Record<string, unknown>, level?: number): Promise<number> {
  const headers = level === undefined ? undefined : { 'X-Mock-Feature-Level': String(level) };
  const r = await suite.t.as('iago', headers).post('/messages', params);
  expect(r.body.result, JSON.stringify(r.body)).toBe('success');
  return r.body.id;
}
const itemsFor = async (deviceId: number): Promise<any[]> =>
  (await suite.control.outbox.list({ kind: 'push', device: deviceId })).items.reverse();

describe('encrypted_data', () => {
  it('opens with the registered push key to the documented JSON of a direct message, the item plaintext', async () => {
    const pushKey = newPushKey();
    const device = await registerDevice('othello', pushKey, 'fcm');
    const messageId = await send({ type: 'direct', to: [id('othello')], content: 'the **handkerchief**' });
    const [item] = await itemsFor(device);
    expect(item).toMatchObject({ form: 'e2ee', event: 'message', message_ids: [messageId] });
    // What the bouncer gets names the key and carries only the sealed data.
    expect(item.payload).toEqual({
      device_id: device,
      fcm_priority: 'high',
      payload: { push_key_id: 77, encrypted_data: expect.any(String) },
    });
    const opened = decrypt(pushKey, item.payload.payload.encrypted_data);
    expect(opened).toEqual({
      type: 'message',
      message_id: messageId,
      realm_name: 'Zulip Dev',
      realm_url: store().realm.url,
      user_id: id('othello'),
      sender_id: id('iago'),
      sender_full_name: 'Iago',
      sender_avatar_url: expect.stringMatching(/^https?:\/\//),
      time: store().messages.get(messageId)!.timestamp,
      content: 'the handkerchief',
      recipient_type: 'direct',
      recipient_user_ids: [id('iago'), id('othello')].sort((a, b) => a - b),
    });
    expect(opened).toEqual(item.plaintext);
  });

  it('opens to the channel form, naming the mentioned group', async () => {
    const pushKey = newPushKey();
    const device = await registerDevice('othello', pushKey, 'fcm');
    const group = store().userGroups.find((g) => g.name === 'hamletcharacters')!;
    store().userGroups.update(group, { direct_members: [...group.direct_members, id('othello')] });
    const messageId = await send({ type: 'stream', to: 'Verona', topic: 'plans', content: '@*hamletcharacters* look' });
    const [item] = await itemsFor(device);
    expect(decrypt(pushKey, item.payload.payload.encrypted_data)).toEqual({
      type: 'message',
      message_id: messageId,
      realm_name: 'Zulip Dev',
      realm_url: store().realm.url,
      user_id: id('othello'),
      sender_id: id('iago'),
      sender_full_name: 'Iago',
      sender_avatar_url: expect.any(String),
      time: expect.any(Number),
      content: '@hamletcharacters look',
      mentioned_user_group_id: group.id,
      mentioned_user_group_name: 'hamletcharacters',
      recipient_type: 'channel',
      channel_id: store().streams.find((s) => s.name === 'Verona')!.stream_id,
      channel_name: 'Verona',
      topic: 'plans',
    });
  });

  it('does not open with another key, nor after a byte is changed, and is sealed afresh each time', async () => {
    const pushKey = newPushKey();
    const device = await registerDevice('othello', pushKey, 'fcm');
    await send({ type: 'direct', to: [id('othello')], content: 'same' });
    await send({ type: 'direct', to: [id('othello')], content: 'same' });
    const [first, second] = (await itemsFor(device)).map((i) => i.payload.payload.encrypted_data as string);
    expect(() => decrypt(newPushKey(), first)).toThrow(/invalid tag/);
    const bytes = Buffer.from(first, 'base64');
    bytes[bytes.length - 1] ^= 1;
    expect(() => decrypt(pushKey, bytes.toString('base64'))).toThrow(/invalid tag/);
    // A random nonce each time: the same content never gives the same data.
    expect(first.slice(0, 32)).not.toBe(second.slice(0, 32));
    expect(Buffer.from(first, 'base64').length).toBe(24 + 16 + JSON.stringify(decrypt(pushKey, first)).length);
  });
});

describe('the push request, per device kind and level', () => {
  it('gives an APNs device the alert placeholder, and `remove` as a background push', async () => {
    const pushKey = newPushKey();
    const device = await registerDevice('othello', pushKey, 'apns');
    const messageId = await send({ type: 'direct', to: [id('othello')], content: 'hello' });
    await suite.t.as('othello').post('/messages/flags', { messages: [messageId], op: 'add', flag: 'read' });
    const [message, remove] = await itemsFor(device);
    expect(message.payload).toEqual({
      device_id: device,
      http_headers: { apns_priority: 10, apns_push_type: 'alert' },
      payload: {
        push_key_id: 77,
        encrypted_data: expect.any(String),
        aps: { 'mutable-content': 1, alert: { title: 'New notification' } },
      },
    });
    expect(remove).toMatchObject({ event: 'remove', message_ids: [messageId] });
    expect(remove.payload).toEqual({
      device_id: device,
      http_headers: { apns_priority: 5, apns_push_type: 'background' },
      payload: { push_key_id: 77, encrypted_data: expect.any(String) },
    });
    expect(decrypt(pushKey, remove.payload.payload.encrypted_data)).toEqual({
      type: 'remove',
      message_ids: [messageId],
      realm_name: 'Zulip Dev',
      realm_url: store().realm.url,
      user_id: id('othello'),
    });
  });

  it('names the key by push_account_id before FL 468, sends pm_users before FL 429, and nothing E2EE before FL 413', async () => {
    // Hamlet's device 1 (fixtures): push_account_id 1, push_key_id 1001.
    const { push_key: pushKey } = store().pushDevices.get(1)!;
    const to = [id('hamlet'), id('othello')];
    const ids = [id('iago'), ...to].sort((a, b) => a - b);
    await send({ type: 'direct', to, content: 'a' }, 467);
    await send({ type: 'direct', to, content: 'b' }, 420);
    await send({ type: 'direct', to, content: 'c' }, 412);
    const [at467, at420, ...rest] = await itemsFor(1);
    expect(rest).toEqual([]);
    expect(at467.payload.payload).toEqual({ push_account_id: 1, encrypted_data: expect.any(String) });
    expect(decrypt(pushKey!, at467.payload.payload.encrypted_data)).toMatchObject({ recipient_user_ids: ids });
    const older = decrypt(pushKey!, at420.payload.payload.encrypted_data);
    expect(older).toMatchObject({ pm_users: ids.join(','), content: 'b' });
    expect(older).not.toHaveProperty('recipient_user_ids');
  });
});

describe('POST /mobile_push/e2ee/test_notification', () => {
  it('records the test notification, sealed with the device key', async () => {
    const pushKey = newPushKey();
    const device = await registerDevice('othello', pushKey, 'fcm');
    const before = suite.t.server.clock.now();
    const r = await suite.t.as('othello').post('/mobile_push/e2ee/test_notification', { device_id: device });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const [item] = await itemsFor(device);
    expect(item).toMatchObject({ user_id: id('othello'), form: 'e2ee', event: 'test', message_ids: [] });
    expect(item.payload).toEqual({
      device_id: device,
      fcm_priority: 'high',
      payload: { push_key_id: 77, encrypted_data: expect.any(String) },
    });
    const opened = decrypt(pushKey, item.payload.payload.encrypted_data) as Record<string, unknown>;
    expect(opened).toEqual({
      type: 'test',
      realm_name: 'Zulip Dev',
      realm_url: store().realm.url,
      user_id: id('othello'),
      time: expect.any(Number),
    });
    expect(opened.time).toBeGreaterThanOrEqual(before);
    expect(opened).toEqual(item.plaintext);
  });
});
