// DELETE /messages/{message_id}: who may delete, the time limit, the event and the state after.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { stream } from '../helpers/fixture-rows.js';
import { sendMessage, sendToChannel } from '../helpers/messages.js';
import { readMessage } from '../helpers/read-back.js';
import { ControlClient } from '../../src/control/client.js';
import { systemGroupId } from '../../src/domain/group-settings/membership.js';

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

const store = () => t.server.world.store;
const del = (who: string, id: number) => t.as(who).delete(`/messages/${id}`);

describe('DELETE /messages/{message_id}', () => {
  it('the sender deletes their message; everyone who saw it gets delete_message', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'oops', 'wrong channel');
    const q = await registerQueue(t, 'othello', ['delete_message'], {
      client_capabilities: { bulk_message_deletion: true },
    });
    const r = await del('hamlet', id);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect(store().messages.get(id)).toBeUndefined();
    expect(await readMessage(t, 'othello', id)).toBeUndefined();
    expect(await eventsOf(t, 'othello', q)).toEqual([
      {
        type: 'delete_message',
        message_type: 'stream',
        message_ids: [id],
        stream_id: stream(t, 'Denmark').stream_id,
        topic: 'oops',
        id: 0,
      },
    ]);
  });

  it('direct messages: the event has no channel', async () => {
    const id = await sendMessage(t, 'hamlet', { type: 'direct', to: [t.user('othello').user_id], content: 'x' });
    const q = await registerQueue(t, 'othello', ['delete_message'], {
      client_capabilities: { bulk_message_deletion: true },
    });
    expect((await del('hamlet', id)).status).toBe(200);
    expect(await eventsOf(t, 'othello', q)).toEqual([
      { type: 'delete_message', message_type: 'private', message_ids: [id], id: 0 },
    ]);
  });

  it('clients without bulk_message_deletion get the single-message form', async () => {
    const id = await sendMessage(t, 'hamlet', { type: 'direct', to: [t.user('othello').user_id], content: 'y' });
    const q = await registerQueue(t, 'othello', ['delete_message']);
    expect((await del('hamlet', id)).status).toBe(200);
    expect(await eventsOf(t, 'othello', q)).toEqual([
      { type: 'delete_message', message_type: 'private', message_id: id, id: 0 },
    ]);
  });

  it("members may not delete others' messages; can_delete_any_message_group (organization or channel) may", async () => {
    const id = await sendToChannel(t, 'othello', 'Denmark', 'mod', 'x');
    const refused = await del('hamlet', id);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(error('BAD_REQUEST', "You don't have permission to delete this message"));
    expect(store().messages.get(id)).toBeDefined();
    // Shiva (moderator) is not in the organization's group (administrators) ...
    expect((await del('shiva', id)).body).toEqual(
      error('BAD_REQUEST', "You don't have permission to delete this message"),
    );
    // ... until the channel grants moderators the permission.
    store().streams.update(stream(t, 'Denmark'), {
      can_delete_any_message_group: systemGroupId(store(), 'role:moderators'),
    });
    expect((await del('shiva', id)).status).toBe(200);
    const other = await sendToChannel(t, 'othello', 'Denmark', 'mod', 'y');
    expect((await del('iago', other)).status).toBe(200);
  });

  it('own messages need can_delete_own_message_group and the delete time limit', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'own', 'x');
    // The fixture's channels let everyone delete their own messages: take that away first.
    store().streams.update(stream(t, 'Denmark'), {
      can_delete_own_message_group: systemGroupId(store(), 'role:nobody'),
    });
    store().updateRealm({ can_delete_own_message_group: systemGroupId(store(), 'role:administrators') });
    expect((await del('hamlet', id)).body).toEqual(
      error('BAD_REQUEST', "You don't have permission to delete this message"),
    );
    store().updateRealm({ can_delete_own_message_group: systemGroupId(store(), 'role:everyone') });
    t.server.clock.advance(601 * 1000);
    expect((await del('hamlet', id)).body).toEqual(
      error('BAD_REQUEST', 'The time limit for deleting this message has passed'),
    );
    store().updateRealm({ message_content_delete_limit_seconds: null });
    expect((await del('hamlet', id)).status).toBe(200);
  });

  it("a bot's owner may delete the bot's messages; invisible messages are Invalid message(s)", async () => {
    const id = await sendToChannel(t, 'hamlet-bot', 'Denmark', 'bot', 'beep');
    expect((await del('othello', id)).status).toBe(400);
    expect((await del('hamlet', id)).status).toBe(200);
    expect((await del('othello', 19)).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
  });
});
