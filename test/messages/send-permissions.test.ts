// POST /messages: who may send what, where: channel permissions (can_send_message_group, private
// and archived channels, can_create_topic_group), the organization's direct message policies and
// user group mention permissions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { stream } from '../helpers/fixture-rows.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const store = () => t.server.world.store;
const send = (who: string, params: Record<string, unknown>) => t.as(who).post('/messages', params);
const systemGroup = (name: string) => store().userGroups.find((g) => g.is_system_group && g.name === name)!.id;

describe('POST /messages: channel permissions', () => {
  it('enforces can_send_message_group (Venice: administrators only)', async () => {
    const r = await send('hamlet', { type: 'stream', to: 'Venice', topic: 'x', content: 'hi' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'You do not have permission to post in this channel.'));
    expect(await send('iago', { type: 'stream', to: 'Venice', topic: 'x', content: 'hi' })).toMatchObject({
      status: 200,
    });
  });

  it('lets only those with access post in a private channel', async () => {
    const r = await send('othello', { type: 'stream', to: 'core team', topic: 'x', content: 'hi' });
    expect(r.body).toEqual(error('BAD_REQUEST', "Not authorized to send to channel 'core team'"));
    expect(await send('hamlet', { type: 'stream', to: 'core team', topic: 'x', content: 'hi' })).toMatchObject({
      status: 200,
    });
  });

  it('refuses archived channels', async () => {
    const r = await send('hamlet', { type: 'stream', to: 'Old Rome', topic: 'x', content: 'hi' });
    expect(r.body).toEqual(error('BAD_REQUEST', "Not authorized to send to channel 'Old Rome'"));
  });
});

describe('POST /messages: topics and groups permissions', () => {
  it('enforces can_create_topic_group for new topics only', async () => {
    store().streams.update(stream(t, 'Denmark'), { can_create_topic_group: systemGroup('role:administrators') });
    try {
      const r = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'a new one', content: 'hi' });
      expect(r.body).toEqual(error('BAD_REQUEST', 'You do not have permission to create new topics in this channel.'));
      expect(await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'test', content: 'hi' })).toMatchObject({
        status: 200,
      });
      expect(await send('iago', { type: 'stream', to: 'Denmark', topic: 'a new one', content: 'hi' })).toMatchObject({
        status: 200,
      });
    } finally {
      store().streams.update(stream(t, 'Denmark'), { can_create_topic_group: systemGroup('role:everyone') });
    }
  });

  it("enforces each group's can_mention_group (leadership: administrators only)", async () => {
    const r = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'x', content: 'cc @*leadership*' });
    expect(r.body).toEqual(error('BAD_REQUEST', "You are not allowed to mention user group 'leadership'."));
    expect(
      await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'x', content: 'cc @_*leadership*' }),
    ).toMatchObject({ status: 200 });
    expect(
      await send('iago', { type: 'stream', to: 'Denmark', topic: 'x', content: 'cc @*leadership*' }),
    ).toMatchObject({ status: 200 });
  });
});

describe("POST /messages: the organization's direct message policies", () => {
  const to = (who: string) => [t.user(who).user_id];

  it('direct_message_permission_group: some participant must hold it', async () => {
    store().updateRealm({ direct_message_permission_group: systemGroup('role:administrators') });
    try {
      const r = await send('hamlet', { type: 'direct', to: to('othello'), content: 'hi' });
      expect(r.body).toEqual(
        error('BAD_REQUEST', 'This conversation does not include any users who can authorize it.'),
      );
      expect(await send('hamlet', { type: 'direct', to: to('iago'), content: 'hi' })).toMatchObject({ status: 200 });
      // Conversations with bots only are always allowed.
      expect(await send('hamlet', { type: 'direct', to: to('hamlet-bot'), content: 'hi' })).toMatchObject({
        status: 200,
      });
      store().updateRealm({ direct_message_permission_group: systemGroup('role:nobody') });
      const none = await send('iago', { type: 'direct', to: to('othello'), content: 'hi' });
      expect(none.body).toEqual(error('BAD_REQUEST', 'Direct messages are disabled in this organization.'));
    } finally {
      store().updateRealm({ direct_message_permission_group: systemGroup('role:everyone') });
    }
  });

  it('direct_message_initiator_group: others may only answer existing conversations', async () => {
    store().updateRealm({ direct_message_initiator_group: systemGroup('role:administrators') });
    try {
      const r = await send('cordelia', { type: 'direct', to: to('prospero'), content: 'hi' });
      expect(r.body).toEqual(
        error('BAD_REQUEST', 'You do not have permission to initiate direct message conversations.'),
      );
      // Hamlet and Othello have talked before.
      expect(await send('othello', { type: 'direct', to: to('hamlet'), content: 'hi again' })).toMatchObject({
        status: 200,
      });
    } finally {
      store().updateRealm({ direct_message_initiator_group: systemGroup('role:everyone') });
    }
  });
});
