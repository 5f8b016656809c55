// POST/DELETE /messages/{message_id}/reactions.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
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

const store = () => t.server.world.store;
const react = (who: string, id: number, params: Record<string, unknown>) =>
  t.as(who).post(`/messages/${id}/reactions`, params);
const unreact = (who: string, id: number, params: Record<string, unknown>) =>
  t.as(who).delete(`/messages/${id}/reactions`, params);

describe('reactions', () => {
  it('adds by name, tells everyone who can see the message, and refuses a duplicate', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'vote', 'lunch?');
    const q = await registerQueue(t, 'othello', ['reaction']);
    const r = await react('othello', id, { emoji_name: 'pizza' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const othello = t.user('othello');
    expect((await readMessage(t, 'hamlet', id)).reactions).toEqual([
      // No `user` object: the real server dropped it from message reactions at feature level 328.
      { emoji_name: 'pizza', emoji_code: '1f355', reaction_type: 'unicode_emoji', user_id: othello.user_id },
    ]);
    expect(await eventsOf(t, 'othello', q)).toEqual([
      {
        type: 'reaction',
        op: 'add',
        user_id: othello.user_id,
        user: { user_id: othello.user_id, email: othello.email, full_name: othello.full_name },
        message_id: id,
        emoji_name: 'pizza',
        emoji_code: '1f355',
        reaction_type: 'unicode_emoji',
        id: 0,
      },
    ]);
    const again = await react('othello', id, { emoji_name: 'pizza' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(error('REACTION_ALREADY_EXISTS', 'Reaction already exists.'));
  });

  it('a reaction with an existing emoji code is a vote for it and keeps the first name', async () => {
    // Message 1 has thumbs_up (1f44d) reactions; "+1" is the same emoji.
    expect((await react('cordelia', 1, { emoji_name: '+1' })).status).toBe(200);
    const mine = store()
      .messages.get(1)!
      .reactions.find((r) => r.user_id === t.user('cordelia').user_id);
    expect(mine).toMatchObject({ emoji_name: 'thumbs_up', emoji_code: '1f44d' });
  });

  it('checks the emoji and the message', async () => {
    expect((await react('hamlet', 1, { emoji_name: 'nonexistent' })).body).toEqual(
      error('BAD_REQUEST', "Emoji 'nonexistent' does not exist"),
    );
    expect(
      (await react('hamlet', 1, { emoji_name: 'pizza', emoji_code: 'ffff', reaction_type: 'unicode_emoji' })).body,
    ).toEqual(error('BAD_REQUEST', 'Invalid emoji code.'));
    expect(
      (await react('hamlet', 1, { emoji_name: 'pizza', emoji_code: '1f37a', reaction_type: 'unicode_emoji' })).body,
    ).toEqual(error('BAD_REQUEST', 'Invalid emoji name.'));
    expect((await react('hamlet', 1, { emoji_name: 'zulip', reaction_type: 'zulip_extra_emoji' })).status).toBe(200);
    expect((await react('othello', 19, { emoji_name: 'pizza' })).body).toEqual(
      error('BAD_REQUEST', 'Invalid message(s)'),
    );
    expect((await react('hamlet', 1, {})).body).toEqual(
      error('REQUEST_VARIABLE_MISSING', "Missing 'emoji_name' argument", { var_name: 'emoji_name' }),
    );
  });

  it('reacting to history one never received gives one a row, so later changes reach one', async () => {
    expect((await react('othello', 17, { emoji_name: 'fire' })).status).toBe(200);
    expect(store().messages.get(17)!.flags[String(t.user('othello').user_id)]).toEqual(['read', 'historical']);
  });

  it("removes only one's own reaction, by name or code", async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'vote', 'x');
    await react('othello', id, { emoji_name: 'tada' });
    const q = await registerQueue(t, 'hamlet', ['reaction']);
    const notMine = await unreact('hamlet', id, { emoji_name: 'tada' });
    expect(notMine.body).toEqual(error('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist."));
    expect((await unreact('othello', id, {})).body).toEqual(
      error('BAD_REQUEST', 'At least one of the following arguments must be present: emoji_name, emoji_code'),
    );
    expect((await unreact('othello', id, { emoji_code: '1f389' })).status).toBe(200);
    expect((await readMessage(t, 'hamlet', id)).reactions).toEqual([]);
    expect(await eventsOf(t, 'hamlet', q)).toMatchObject([
      { type: 'reaction', op: 'remove', message_id: id, emoji_name: 'tada', emoji_code: '1f389' },
    ]);
  });
});
