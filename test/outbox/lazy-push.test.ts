// A message's push notifications are recorded when the message is sent and built when first read
// (outbox.ts, recordLazy): what a reader gets is what was true when the message was sent (a later
// edit, rename or new push key changes nothing), an item is built once, only the items a query
// returns are built, and the outbox's bounds (entries and bytes) still hold.
import { randomBytes } from 'node:crypto';
import { secretbox } from '@noble/ciphers/salsa.js';
import { describe, expect, it } from 'vitest';
import { outboxSuite } from '../helpers/outbox-suite.js';
import { Outbox, type LazyPush, type OutboxItem } from '../../src/domain/outbox/outbox.js';

const suite = outboxSuite();
const id = (who: string) => suite.t.user(who).user_id;

const newPushKey = () => Buffer.concat([Buffer.from([0x31]), randomBytes(32)]).toString('base64');

function decrypt(pushKey: string, encryptedData: string): unknown {
  const key = Buffer.from(pushKey, 'base64');
  const bytes = Buffer.from(encryptedData, 'base64');
  const opened = secretbox(key.subarray(1), bytes.subarray(0, 24)).open(bytes.subarray(24));
  return JSON.parse(Buffer.from(opened).toString('utf8'));
}

describe('a notification read after the message, the sender, the organization or the device changed', () => {
  it('shows them as they were when the message was sent', async () => {
    const { t, control } = suite;
    const oldKey = newPushKey();
    const deviceId = (await t.as('othello').post('/register_client_device')).body.device_id;
    const registered = await t.as('othello').post('/mobile_push/register', {
      device_id: deviceId,
      push_key: oldKey,
      push_key_id: 7,
      token_kind: 'fcm',
      token_id: 'hGsEWGmyyfI=',
      bouncer_public_key: 'bouncer-public-key',
      encrypted_push_registration: 'sealed',
    });
    expect(registered.body.result).toBe('success');
    await t.as('othello').post('/users/me/android_gcm_reg_id', { token: 'fcm-token-othello' });
    await t.as('othello').post('/users/me/apns_device_token', { token: 'c0ffee00', appid: 'org.zulip.Zulip' });
    const sent = await t
      .as('iago')
      .post('/messages', { type: 'direct', to: [id('othello')], content: 'the **first** words' });
    expect(sent.body.result).toBe('success');
    // The notifications are recorded (not read) before anything changes.
    await control.outgoing.settle();

    expect((await t.as('iago').patch(`/messages/${sent.body.id}`, { content: 'other words' })).body.result).toBe(
      'success',
    );
    expect((await t.as('iago').patch('/settings', { full_name: 'Iago Renamed' })).body.result).toBe('success');
    expect((await t.as('iago').patch('/realm', { name: 'Renamed Org' })).body.result).toBe('success');
    const newKey = newPushKey();
    const rotated = await t.as('othello').post('/mobile_push/register', {
      device_id: deviceId,
      push_key: newKey,
      push_key_id: 8,
    });
    expect(rotated.body.result).toBe('success');

    const items = (await control.outbox.list({ kind: 'push', user: String(id('othello')) })).items;
    const byForm = Object.fromEntries(
      items.filter((i) => i.kind === 'push' && i.event === 'message').map((i) => [(i as any).form, i as any]),
    );
    expect(Object.keys(byForm).sort()).toEqual(['android', 'e2ee', 'ios']);
    expect(byForm.android.payload.data).toMatchObject({
      content: 'the first words',
      sender_full_name: 'Iago',
      realm_name: 'Zulip Dev',
    });
    expect(byForm.ios.payload.alert).toMatchObject({ title: 'Iago', body: 'the first words' });
    const e2ee = byForm.e2ee;
    expect(e2ee.payload.payload.push_key_id).toBe(7);
    const opened = decrypt(oldKey, e2ee.payload.payload.encrypted_data);
    expect(opened).toMatchObject({ content: 'the first words', sender_full_name: 'Iago', realm_name: 'Zulip Dev' });
    expect(opened).toEqual(e2ee.plaintext);
    expect(() => decrypt(newKey, e2ee.payload.payload.encrypted_data)).toThrow(/invalid tag/);

    // Read again: the same item, sealed once (a new nonce would change encrypted_data).
    const again = (await control.outbox.list({ kind: 'push', device: deviceId })).items.find(
      (i) => i.id === e2ee.id,
    ) as any;
    expect(again.payload.payload.encrypted_data).toBe(e2ee.payload.payload.encrypted_data);
    // The item's fields in the order an eagerly built item has them.
    expect(Object.keys(e2ee)).toEqual([
      'kind',
      'user_id',
      'device_id',
      'form',
      'event',
      'message_ids',
      'payload',
      'plaintext',
      'id',
      'time',
    ]);
  });
});

/** A lazily recorded item whose payload is `bytes` characters long, counting its builds. */
function lazyItem(builds: number[], n: number, estimate: number, bytes = 10): LazyPush {
  return {
    head: { kind: 'push', user_id: 1, device_id: n, form: 'android', event: 'message', message_ids: [n] },
    build: () => {
      builds[n] = (builds[n] ?? 0) + 1;
      return { payload: { data: 'x'.repeat(bytes) } };
    },
    estimate,
  };
}

describe('the outbox with lazily built items', () => {
  it('builds only the items a query returns, each once, and keeps the newest 5000', () => {
    const outbox = new Outbox();
    const builds: number[] = [];
    for (let n = 0; n < 5003; n++) outbox.recordLazy(lazyItem(builds, n, 300), 1000 + n);
    const first = outbox.query({ limit: 10 });
    expect(first.count).toBe(5000);
    expect(first.items.map((i) => (i as { device_id: number }).device_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => 5002 - i),
    );
    expect(builds.filter(Boolean)).toEqual(Array(10).fill(1));
    // Filtering needs no build: the device of an unbuilt item is known.
    expect(outbox.query({ device: 3 }).count).toBe(1);
    expect(outbox.query({ device: 2 }).count).toBe(0);
    const second = outbox.query({ limit: 10 });
    expect(second.items[0]).toBe(first.items[0]);
    expect(builds[5002]).toBe(1);
    expect(first.items[0]).toEqual({
      kind: 'push',
      user_id: 1,
      device_id: 5002,
      form: 'android',
      event: 'message',
      message_ids: [5002],
      payload: { data: 'x'.repeat(10) },
      id: 5003,
      time: 6002,
    });
  });

  it('counts an unbuilt item at its estimate and a built one at its size in the byte bound', () => {
    const outbox = new Outbox();
    const builds: number[] = [];
    const MiB = 1024 * 1024;
    // Sixteen estimated at a MiB each fill the 16 MiB: the seventeenth pushes the oldest out.
    for (let n = 0; n < 17; n++) outbox.recordLazy(lazyItem(builds, n, MiB - 200), n);
    expect(outbox.query({ limit: 0 }).count).toBe(16);
    // Estimated small, built at 3 MiB each: once read, the bound applies to what they take.
    const big = new Outbox();
    for (let n = 0; n < 10; n++) big.recordLazy(lazyItem(builds, 100 + n, 500, 3 * MiB), n);
    expect(big.query({ limit: 0 }).count).toBe(10);
    // What was in the outbox when asked is answered; the bound then drops the oldest.
    expect(big.query({}).items).toHaveLength(10);
    const kept = big.query({});
    expect(kept.count).toBe(5);
    expect(kept.items.map((i) => i.id)).toEqual([10, 9, 8, 7, 6]);
  });

  it('builds an item at once for a listener, which gets it whole', () => {
    const outbox = new Outbox();
    const builds: number[] = [];
    const heard: OutboxItem[] = [];
    const stop = outbox.onRecord((item) => heard.push(item));
    outbox.recordLazy(lazyItem(builds, 1, 300), 5);
    expect(builds[1]).toBe(1);
    expect(heard[0]).toMatchObject({ device_id: 1, payload: { data: 'x'.repeat(10) }, id: 1, time: 5 });
    expect(outbox.query({}).items[0]).toBe(heard[0]);
    stop();
    outbox.recordLazy(lazyItem(builds, 2, 300), 6);
    expect(builds[2]).toBeUndefined();
    expect(builds[1]).toBe(1);
  });
});
