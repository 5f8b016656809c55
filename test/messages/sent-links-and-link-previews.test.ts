// Levels 508 and 510 of POST /messages and message flags: the sent message's message_url and
// message_link in the answer (508; before, only its ID), and the hide_link_previews flag (510;
// before, an invalid flag).
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { readMessage } from '../helpers/read-back.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const at = (level: number, who = 'hamlet') => t.as(who, { 'X-Mock-Feature-Level': String(level) });
const realmUrl = () => t.server.world.store.realm.url;

describe('POST /messages: message_url and message_link (FL 508)', () => {
  it('links a channel message with the channel and topic, and a direct message by its participants', async () => {
    // Othello follows the topics he starts: automatic_new_visibility_policy comes too.
    const r = await t
      .as('othello')
      .post('/messages', { type: 'stream', to: 'Denmark', topic: 'the play', content: 'hi' });
    const url = `${realmUrl()}/#narrow/channel/1-Denmark/topic/the.20play/near/${r.body.id}`;
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      id: r.body.id,
      message_url: url,
      message_link: `[#Denmark > the play @ 💬](${url})`,
      automatic_new_visibility_policy: 3,
    });
    const othello = t.user('othello').user_id;
    const hamlet = t.user('hamlet').user_id;
    const dm = await t.as('hamlet').post('/messages', { type: 'direct', to: [othello], content: 'psst' });
    const ids = [hamlet, othello].sort((a, b) => a - b).join(',');
    const dmUrl = `${realmUrl()}/#narrow/dm/${ids}-dm/near/${dm.body.id}`;
    expect(dm.body).toEqual({ result: 'success', msg: '', id: dm.body.id, message_url: dmUrl, message_link: dmUrl });
  });

  it('names the channel by ID alone to a bot that may post but not see the channel', async () => {
    // Hamlet's bot posts to a private channel of Hamlet's it is not subscribed to.
    const created = await t
      .as('hamlet')
      .post('/channels/create', { name: 'Hamlet only', invite_only: true, subscribers: [t.user('hamlet').user_id] });
    const r = await t
      .as('hamlet-bot')
      .post('/messages', { type: 'stream', to: created.body.id, topic: 'notes', content: 'from the bot' });
    expect(r.status).toBe(200);
    const url = `${realmUrl()}/#narrow/channel/${created.body.id}/topic/notes/near/${r.body.id}`;
    expect(r.body).toMatchObject({ message_url: url, message_link: url });
  });

  it('answers with the ID only at 507', async () => {
    const r = await at(507, 'othello').post('/messages', {
      type: 'stream',
      to: 'Denmark',
      topic: 'the play',
      content: 'hi',
    });
    expect(r.body).toEqual({ result: 'success', msg: '', id: r.body.id, automatic_new_visibility_policy: 3 });
  });
});

describe('the hide_link_previews flag (FL 510)', () => {
  it('is added and removed like starred, with update_message_flags events', async () => {
    const q = await registerQueue(t, 'hamlet', ['update_message_flags']);
    const r = await t.as('hamlet').post('/messages/flags', { messages: [1], op: 'add', flag: 'hide_link_previews' });
    expect(r.body).toEqual({ result: 'success', msg: '', messages: [1] });
    expect((await readMessage(t, 'hamlet', 1)).flags).toContain('hide_link_previews');
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      {
        type: 'update_message_flags',
        op: 'add',
        operation: 'add',
        flag: 'hide_link_previews',
        messages: [1],
        all: false,
        id: 0,
      },
    ]);
    // A client of 509 does not know the flag: messages read at its level do not show it.
    const atOld = await at(509).get('/messages', { message_ids: [1] });
    expect(atOld.body.messages[0].flags).not.toContain('hide_link_previews');
    await t.as('hamlet').post('/messages/flags', { messages: [1], op: 'remove', flag: 'hide_link_previews' });
    expect((await readMessage(t, 'hamlet', 1)).flags).not.toContain('hide_link_previews');
  });

  it('is an invalid flag at 509, in both operations', async () => {
    const r = await at(509).post('/messages/flags', { messages: [1], op: 'add', flag: 'hide_link_previews' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', "Invalid flag: 'hide_link_previews'"));
    const narrow = await at(509).post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [],
      op: 'add',
      flag: 'hide_link_previews',
    });
    expect(narrow.body).toEqual(error('BAD_REQUEST', "Invalid flag: 'hide_link_previews'"));
    expect((await readMessage(t, 'hamlet', 1)).flags).not.toContain('hide_link_previews');
  });
});
