// POST /messages/{message_id}/typing: editing-typing notifications.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { stream } from '../helpers/fixture-rows.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const store = () => t.server.world.store;
const typing = (who: string, id: number, op: string) => t.as(who).post(`/messages/${id}/typing`, { op });

async function sendAs(who: string, params: Record<string, unknown>): Promise<number> {
  const r = await t.as(who).post('/messages', params);
  expect(r.status).toBe(200);
  return r.body.id;
}

describe('POST /messages/{message_id}/typing', () => {
  it('tells the channel subscribers who receive typing notifications, for start and stop', async () => {
    const id = await sendAs('hamlet', { type: 'stream', to: 'Denmark', topic: 'typo', content: 'teh' });
    const iagoQ = await registerQueue(t, 'iago', ['typing_edit_message']);
    // Cordelia (a Denmark subscriber) has receives_typing_notifications off in the fixture.
    expect(t.user('cordelia').settings.receives_typing_notifications).toBe(false);
    const cordeliaQ = await registerQueue(t, 'cordelia', ['typing_edit_message']);
    for (const op of ['start', 'stop']) {
      const r = await typing('hamlet', id, op);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ result: 'success', msg: '' });
    }
    const recipient = { type: 'channel', channel_id: stream(t, 'Denmark').stream_id, topic: 'typo' };
    expect(await eventsOf(t, 'iago', iagoQ)).toEqual([
      {
        type: 'typing_edit_message',
        op: 'start',
        sender_id: t.user('hamlet').user_id,
        message_id: id,
        recipient,
        id: 0,
      },
      {
        type: 'typing_edit_message',
        op: 'stop',
        sender_id: t.user('hamlet').user_id,
        message_id: id,
        recipient,
        id: 1,
      },
    ]);
    expect(await eventsOf(t, 'cordelia', cordeliaQ)).toEqual([]);
  });

  it('names the participants of a direct message', async () => {
    const othello = t.user('othello').user_id;
    const hamlet = t.user('hamlet').user_id;
    const id = await sendAs('hamlet', { type: 'direct', to: [othello], content: 'helo' });
    const q = await registerQueue(t, 'othello', ['typing_edit_message']);
    expect(await typing('hamlet', id, 'start')).toMatchObject({ status: 200 });
    const [event] = await eventsOf(t, 'othello', q);
    expect(event).toMatchObject({
      op: 'start',
      message_id: id,
      recipient: { type: 'direct', user_ids: [hamlet, othello].sort((a, b) => a - b) },
    });
  });

  it('requires being able to edit the message', async () => {
    const id = await sendAs('hamlet', { type: 'stream', to: 'Denmark', topic: 'typo', content: 'mine' });
    const notMine = await typing('iago', id, 'start');
    expect(notMine.status).toBe(400);
    expect(notMine.body).toEqual(error('BAD_REQUEST', "You don't have permission to edit this message"));
    const invisible = await typing('othello', 19, 'start'); // core team
    expect(invisible.body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
  });

  it("refuses once the organization's edit time limit has passed, or when editing is off", async () => {
    const id = await sendAs('hamlet', { type: 'stream', to: 'Denmark', topic: 'typo', content: 'old' });
    const limit = store().realm.message_content_edit_limit_seconds!;
    t.server.clock.advance((limit + 60) * 1000);
    const late = await typing('hamlet', id, 'start');
    expect(late.body).toEqual(error('BAD_REQUEST', 'The time limit for editing this message has passed'));
    const fresh = await sendAs('hamlet', { type: 'stream', to: 'Denmark', topic: 'typo', content: 'new' });
    store().updateRealm({ allow_message_editing: false });
    try {
      const off = await typing('hamlet', fresh, 'start');
      expect(off.body).toEqual(error('BAD_REQUEST', 'Your organization has turned off message editing'));
    } finally {
      store().updateRealm({ allow_message_editing: true });
    }
    expect(await typing('hamlet', fresh, 'start')).toMatchObject({ status: 200 });
  });

  it('refuses when the user turned off sending typing notifications', async () => {
    const id = await sendAs('hamlet', { type: 'stream', to: 'Denmark', topic: 'typo', content: 'x' });
    const hamlet = t.user('hamlet');
    store().users.update(hamlet, { settings: { ...hamlet.settings, send_stream_typing_notifications: false } });
    try {
      const r = await typing('hamlet', id, 'start');
      expect(r.body).toEqual(error('BAD_REQUEST', 'User has disabled typing notifications for channel messages'));
    } finally {
      store().users.update(hamlet, { settings: { ...hamlet.settings, send_stream_typing_notifications: true } });
    }
  });

  it('accepts only start and stop', async () => {
    const r = await typing('hamlet', 1, 'pause');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_REQUEST');
  });
});
