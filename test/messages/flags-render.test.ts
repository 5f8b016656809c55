// POST /messages/flags and POST /messages/render.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { stream } from '../helpers/fixture-rows.js';
import { sendToChannel } from '../helpers/messages.js';
import { readMessage } from '../helpers/read-back.js';
import { ControlClient } from '../../src/control/client.js';

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

const flags = (who: string, messages: number[], op: string, flag: string) =>
  t.as(who).post('/messages/flags', { messages, op, flag });

describe('POST /messages/flags', () => {
  it('stars and unstars; the response lists the request, the event only what changed', async () => {
    const q = await registerQueue(t, 'hamlet', ['update_message_flags']);
    const r = await flags('hamlet', [1, 3], 'add', 'starred');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', messages: [1, 3] });
    expect((await readMessage(t, 'hamlet', 1)).flags).toContain('starred');
    // 3 was already starred in the fixture.
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [1], all: false, id: 0 },
    ]);
    expect((await flags('hamlet', [1], 'remove', 'starred')).status).toBe(200);
    expect((await readMessage(t, 'hamlet', 1)).flags).not.toContain('starred');
  });

  it('marks read, and unread with the details clients need', async () => {
    const id = await sendToChannel(t, 'othello', 'Denmark', 'news', 'unread for hamlet');
    expect((await readMessage(t, 'hamlet', id)).flags).toEqual([]);
    expect((await flags('hamlet', [id], 'add', 'read')).status).toBe(200);
    expect((await readMessage(t, 'hamlet', id)).flags).toEqual(['read']);
    const q = await registerQueue(t, 'hamlet', ['update_message_flags']);
    expect((await flags('hamlet', [id, 24], 'remove', 'read')).status).toBe(200);
    const [event] = await eventsOf(t, 'hamlet', q);
    expect(event).toMatchObject({ op: 'remove', flag: 'read', messages: [id, 24] });
    expect(event.message_details).toEqual({
      [id]: { type: 'stream', stream_id: stream(t, 'Denmark').stream_id, topic: 'news', unmuted_stream_msg: true },
      24: { type: 'private', user_ids: [t.user('othello').user_id] },
    });
  });

  it('marking unread skips channels the user is not subscribed to; starring history creates the row', async () => {
    // Othello is not subscribed to Rome; message 17 is in its public history.
    expect((await flags('othello', [17], 'remove', 'read')).status).toBe(200);
    expect((await readMessage(t, 'othello', 17)).flags).toEqual(['read', 'historical']);
    expect((await flags('othello', [17], 'add', 'starred')).status).toBe(200);
    expect((await readMessage(t, 'othello', 17)).flags).toEqual(['read', 'historical', 'starred']);
    expect((await flags('othello', [19], 'add', 'starred')).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    expect((await flags('othello', [99999], 'add', 'starred')).body).toEqual(
      error('BAD_REQUEST', 'Invalid message(s)'),
    );
  });

  it('refuses unknown and server-set flags', async () => {
    expect((await flags('hamlet', [1], 'add', 'bogus')).body).toEqual(error('BAD_REQUEST', "Invalid flag: 'bogus'"));
    expect((await flags('hamlet', [1], 'add', 'mentioned')).body).toEqual(
      error('BAD_REQUEST', "Flag not editable: 'mentioned'"),
    );
    const noFlag = await t.as('hamlet').post('/messages/flags', { messages: [1], op: 'add' });
    expect(noFlag.body).toEqual(error('REQUEST_VARIABLE_MISSING', "Missing 'flag' argument", { var_name: 'flag' }));
  });
});

describe('POST /messages/render', () => {
  it('renders Markdown with mentions, without sending', async () => {
    const before = t.server.world.store.messages.size;
    const r = await t.as('hamlet').post('/messages/render', { content: '**hi** @**Othello, the Moor of Venice**' });
    expect(r.status).toBe(200);
    expect(r.body.rendered).toContain('<strong>hi</strong>');
    expect(r.body.rendered).toContain(`data-user-id="${t.user('othello').user_id}"`);
    expect(t.server.world.store.messages.size).toBe(before);
    expect((await t.as('hamlet').post('/messages/render', {})).body).toEqual(
      error('REQUEST_VARIABLE_MISSING', "Missing 'content' argument", { var_name: 'content' }),
    );
  });
});
