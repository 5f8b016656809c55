// GET /messages/{message_id}/history: versions built from edits and moves, the organization's
// visibility policy, access.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { streamId } from '../helpers/fixture-rows.js';
import { sendMessage, sendToChannel } from '../helpers/messages.js';
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

const history = (who: string, id: number, params: Record<string, unknown> = {}) =>
  t.as(who).get(`/messages/${id}/history`, params);
const setPolicy = (policy: string) => {
  const realm = t.server.world.store.realm;
  t.server.world.store.updateRealm({
    shown_settings: { ...realm.shown_settings, message_edit_history_visibility_policy: policy },
  });
};

/**
 * Sent by Hamlet at T, content edited by him at T+60, topic changed by Iago at T+120, then `last`
 * at T+180 (as `who`).
 */
async function sentAndEdited(last: { who: string; change: Record<string, unknown> }) {
  t.server.clock.freeze();
  const sent = t.server.clock.now();
  const id = await sendToChannel(t, 'hamlet', 'Denmark', 'plans', 'lunch at noon');
  t.server.clock.advance(60_000);
  expect((await t.as('hamlet').patch(`/messages/${id}`, { content: 'lunch at one' })).status).toBe(200);
  t.server.clock.advance(60_000);
  expect((await t.as('iago').patch(`/messages/${id}`, { topic: 'lunch' })).status).toBe(200);
  t.server.clock.advance(60_000);
  expect((await t.as(last.who).patch(`/messages/${id}`, last.change)).status).toBe(200);
  return { id, sent };
}

/** Sent by Hamlet at T, content edited at T+60, topic changed at T+120, moved to Verona at T+180. */
const editedMessage = () =>
  sentAndEdited({ who: 'iago', change: { stream_id: streamId(t, 'Verona'), send_notification_to_new_thread: false } });

describe('GET /messages/{message_id}/history', () => {
  it('lists the original and every edit and move, oldest first, to any user who can read the message', async () => {
    const { id, sent } = await editedMessage();
    const hamlet = t.user('hamlet').user_id;
    const iago = t.user('iago').user_id;
    const expected = [
      {
        content: 'lunch at noon',
        rendered_content: '<p>lunch at noon</p>',
        topic: 'plans',
        timestamp: sent,
        user_id: hamlet,
      },
      {
        content: 'lunch at one',
        rendered_content: '<p>lunch at one</p>',
        topic: 'plans',
        timestamp: sent + 60,
        user_id: hamlet,
        prev_content: 'lunch at noon',
        prev_rendered_content: '<p>lunch at noon</p>',
        content_html_diff:
          '<div><p>lunch at <span class="highlight_text_inserted">one</span><span class="highlight_text_deleted">noon</span></p></div>',
      },
      {
        content: 'lunch at one',
        rendered_content: '<p>lunch at one</p>',
        topic: 'lunch',
        prev_topic: 'plans',
        timestamp: sent + 120,
        user_id: iago,
      },
      {
        content: 'lunch at one',
        rendered_content: '<p>lunch at one</p>',
        topic: 'lunch',
        timestamp: sent + 180,
        user_id: iago,
        prev_stream: streamId(t, 'Denmark'),
        stream: streamId(t, 'Verona'),
      },
    ];
    const r = await history('hamlet', id);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', message_history: expected });
    expect((await history('othello', id)).body.message_history).toEqual(expected);
  });

  it("shows the fixture's edited and moved messages", async () => {
    const edited = (await history('othello', 7)).body.message_history;
    expect(edited.map((v: any) => v.content)).toEqual(['Hello everyone', 'Hello everyone :wave:']);
    expect(edited[1].content_html_diff).toContain('highlight_text_inserted');
    const moved = (await history('othello', 2)).body.message_history;
    expect(moved.map((v: any) => [v.topic, v.prev_topic, v.user_id])).toEqual([
      ['soliloquy', undefined, t.user('hamlet').user_id],
      ['test', 'soliloquy', t.user('iago').user_id],
    ]);
  });

  it('a message never edited has only its original', async () => {
    const id = await sendMessage(t, 'hamlet', {
      type: 'private',
      to: JSON.stringify([t.user('othello').user_id]),
      content: 'hi',
    });
    expect((await history('othello', id)).body.message_history).toEqual([
      {
        content: 'hi',
        rendered_content: '<p>hi</p>',
        topic: '',
        timestamp: expect.any(Number),
        user_id: t.user('hamlet').user_id,
      },
    ]);
  });

  it('shows the empty topic by its display name unless the client handles it', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', '', 'no topic yet');
    expect((await t.as('hamlet').patch(`/messages/${id}`, { topic: 'named' })).status).toBe(200);
    const shown = (await history('hamlet', id)).body.message_history;
    expect(shown.map((v: any) => v.topic)).toEqual(['general chat', 'named']);
    expect(shown[1].prev_topic).toBe('general chat');
    const raw = (await history('hamlet', id, { allow_empty_topic_name: true })).body.message_history;
    expect(raw.map((v: any) => v.topic)).toEqual(['', 'named']);
  });

  it('under the moves policy leaves content edits out', async () => {
    const { id } = await editedMessage();
    setPolicy('moves');
    const shown = (await history('hamlet', id)).body.message_history;
    expect(shown).toHaveLength(3);
    expect(shown.some((v: any) => 'prev_content' in v || 'content_html_diff' in v)).toBe(false);
    expect(shown.map((v: any) => v.prev_topic ?? v.prev_stream ?? null)).toEqual([
      null,
      'plans',
      streamId(t, 'Denmark'),
    ]);
  });

  it('below FL 358 the moves policy is not known: the whole history shows', async () => {
    const old = await startTestServer({ featureLevel: 357 });
    try {
      const id = await sendToChannel(old, 'hamlet', 'Denmark', 'old', 'before');
      await old.as('hamlet').patch(`/messages/${id}`, { content: 'after' });
      const realm = old.server.world.store.realm;
      old.server.world.store.updateRealm({
        shown_settings: { ...realm.shown_settings, message_edit_history_visibility_policy: 'moves' },
      });
      expect((await old.as('hamlet').get(`/messages/${id}/history`)).body.message_history).toHaveLength(2);
    } finally {
      await old.close();
    }
  });

  it('refuses when the organization hides edit history, and messages the user cannot read', async () => {
    const { id } = await editedMessage();
    const direct = await sendMessage(t, 'hamlet', {
      type: 'private',
      to: JSON.stringify([t.user('othello').user_id]),
      content: 'between us',
    });
    expect((await history('othello', direct)).status).toBe(200);
    expect((await history('cordelia', direct)).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    expect((await history('hamlet', 99999)).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    setPolicy('none');
    const r = await history('hamlet', id);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Message edit history is disabled in this organization'));
  });
});

describe('edit_history in GET /messages and GET /messages/{message_id}', () => {
  /** Sent at T; content edited by Hamlet at T+60; topic changed by Iago at T+120; content and topic changed together by Hamlet at T+180. */
  const twiceMoved = () => sentAndEdited({ who: 'hamlet', change: { content: 'lunch at two', topic: 'late lunch' } });
  const single = async (id: number) =>
    (await t.as('othello').get(`/messages/${id}`, { apply_markdown: false })).body.message;
  const listed = async (id: number) => {
    const r = await t
      .as('othello')
      .get('/messages', { anchor: id, num_before: 0, num_after: 0, narrow: [{ operator: 'id', operand: id }] });
    expect(r.status).toBe(200);
    expect(r.body.messages).toHaveLength(1);
    return r.body.messages[0];
  };

  it('all: every entry as recorded, newest first', async () => {
    const { id, sent } = await twiceMoved();
    const hamlet = t.user('hamlet').user_id;
    const iago = t.user('iago').user_id;
    const expected = [
      {
        prev_content: 'lunch at one',
        prev_rendered_content: '<p>lunch at one</p>',
        prev_topic: 'lunch',
        topic: 'late lunch',
        timestamp: sent + 180,
        user_id: hamlet,
      },
      { prev_topic: 'plans', topic: 'lunch', timestamp: sent + 120, user_id: iago },
      {
        prev_content: 'lunch at noon',
        prev_rendered_content: '<p>lunch at noon</p>',
        timestamp: sent + 60,
        user_id: hamlet,
      },
    ];
    expect((await single(id)).edit_history).toEqual(expected);
    expect((await listed(id)).edit_history).toEqual(expected);
  });

  it('moves: content-only edits are left out, an edit that also moved keeps only the move', async () => {
    const { id, sent } = await twiceMoved();
    setPolicy('moves');
    const expected = [
      { prev_topic: 'lunch', topic: 'late lunch', timestamp: sent + 180, user_id: t.user('hamlet').user_id },
      { prev_topic: 'plans', topic: 'lunch', timestamp: sent + 120, user_id: t.user('iago').user_id },
    ];
    const one = await single(id);
    expect(one.edit_history).toEqual(expected);
    expect(one.last_edit_timestamp).toBe(sent + 180);
    expect((await listed(id)).edit_history).toEqual(expected);
  });

  it('moves: a message only ever edited in content shows an empty list', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'plans', 'before');
    expect((await t.as('hamlet').patch(`/messages/${id}`, { content: 'after' })).status).toBe(200);
    setPolicy('moves');
    expect((await single(id)).edit_history).toEqual([]);
    expect((await listed(id)).edit_history).toEqual([]);
  });

  it('none: no edit_history at all', async () => {
    const { id } = await twiceMoved();
    setPolicy('none');
    expect('edit_history' in (await single(id))).toBe(false);
    expect('edit_history' in (await listed(id))).toBe(false);
  });
});
