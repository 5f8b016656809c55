// POST /messages: addressing (channel by name or ID, users by ID or email), content and topic
// rules. The rest of the send rules are in send-effects.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { stream } from '../helpers/fixture-rows.js';
import { sendMessage } from '../helpers/messages.js';
import { readBack } from '../helpers/read-back.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const store = () => t.server.world.store;
const send = (who: string, params: Record<string, unknown>) => t.as(who).post('/messages', params);

const sendOk = (who: string, params: Record<string, unknown>) => sendMessage(t, who, params);

describe('POST /messages: addressing', () => {
  it('sends a channel message by name; it is stored and read back rendered', async () => {
    const r = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'castle', content: 'Hello **world**' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: 'success', msg: '' });
    const id = r.body.id;
    expect(store().messages.get(id)).toMatchObject({
      sender_id: t.user('hamlet').user_id,
      type: 'stream',
      stream_id: stream(t, 'Denmark').stream_id,
      topic: 'castle',
      content: 'Hello **world**',
    });
    expect(
      await readBack(t, 'hamlet', id, [
        { operator: 'channel', operand: 'Denmark' },
        { operator: 'topic', operand: 'castle' },
      ]),
    ).toEqual({ match_content: '<p>Hello <strong>world</strong></p>', match_subject: 'castle' });
  });

  it('accepts every spelling of the type and a channel ID as `to`', async () => {
    const verona = stream(t, 'Verona').stream_id;
    for (const type of ['channel', 'stream']) {
      const id = await sendOk('hamlet', { type, to: verona, topic: 'spellings', content: `via ${type}` });
      expect(store().messages.get(id)).toMatchObject({ type: 'stream', stream_id: verona });
    }
    for (const type of ['direct', 'private']) {
      const id = await sendOk('hamlet', { type, to: [t.user('othello').user_id], content: `via ${type}` });
      expect(store().messages.get(id)).toMatchObject({
        type: 'private',
        recipient_ids: [t.user('hamlet').user_id, t.user('othello').user_id].sort((a, b) => a - b),
      });
    }
  });

  it('addresses direct messages by emails too, and ignores the sender among the recipients', async () => {
    const ids = [t.user('hamlet').user_id, t.user('othello').user_id, t.user('cordelia').user_id].sort((a, b) => a - b);
    const byEmail = await sendOk('hamlet', {
      type: 'direct',
      to: ['othello@zulip.com', 'cordelia@zulip.com', 'hamlet@zulip.com'],
      content: 'group',
    });
    expect(store().messages.get(byEmail)!.recipient_ids).toEqual(ids);
    const othello = t.user('othello').user_id;
    const withSelf = await sendOk('hamlet', {
      type: 'direct',
      to: [othello, t.user('hamlet').user_id],
      content: 'one to one',
    });
    expect(store().messages.get(withSelf)!.recipient_ids).toEqual(
      [t.user('hamlet').user_id, othello].sort((a, b) => a - b),
    );
    // Read back as the recipient: the conversation with hamlet.
    expect(
      await readBack(t, 'othello', withSelf, [{ operator: 'dm', operand: [t.user('hamlet').user_id] }]),
    ).toBeDefined();
  });

  it('keeps the sender when they are the only recipient', async () => {
    const me = t.user('hamlet').user_id;
    const id = await sendOk('hamlet', { type: 'direct', to: [me], content: 'note to self' });
    expect(store().messages.get(id)!.recipient_ids).toEqual([me]);
  });

  it('refuses an unknown channel name with STREAM_DOES_NOT_EXIST and the name', async () => {
    const r = await send('hamlet', { type: 'stream', to: 'Atlantis', topic: 'x', content: 'hi' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('STREAM_DOES_NOT_EXIST', "Channel 'Atlantis' does not exist", { stream: 'Atlantis' }));
  });

  it('refuses an unknown channel ID with STREAM_DOES_NOT_EXIST and the ID', async () => {
    const r = await send('hamlet', { type: 'stream', to: 999, topic: 'x', content: 'hi' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('STREAM_DOES_NOT_EXIST', "Channel with ID '999' does not exist", { stream_id: 999 }));
  });

  it('refuses unknown, missing and deactivated direct recipients', async () => {
    const before = store().messages.size;
    const cases: Array<[unknown, string]> = [
      [['nobody@zulip.com'], "Invalid email 'nobody@zulip.com'"],
      [[999], 'Invalid user ID 999'],
      [[], 'Message must have recipients'],
      [[t.user('ariel').user_id], "'ariel@zulip.com' is no longer using Zulip."],
    ];
    for (const [to, msg] of cases) {
      const r = await send('hamlet', { type: 'direct', to, content: 'hi' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', msg));
    }
    expect(store().messages.size).toBe(before);
  });
});

describe('POST /messages: content and topic', () => {
  it('limits content to max_message_length and refuses empty content', async () => {
    const long = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'x', content: 'a'.repeat(10001) });
    expect(long.status).toBe(400);
    expect(long.body).toEqual(error('BAD_REQUEST', 'content is too long (limit: 10000 characters)'));
    expect(
      await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'x', content: 'a'.repeat(10000) }),
    ).toMatchObject({ status: 200 });
    const blank = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'x', content: '  \n ' });
    expect(blank.body).toEqual(error('BAD_REQUEST', 'Message must not be empty'));
  });

  it('requires a topic for channel messages, limited to max_topic_length, and accepts `subject`', async () => {
    const missing = await send('hamlet', { type: 'stream', to: 'Denmark', content: 'hi' });
    expect(missing.body).toEqual(error('BAD_REQUEST', 'Missing topic'));
    const long = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 't'.repeat(61), content: 'hi' });
    expect(long.body).toEqual(error('BAD_REQUEST', 'topic is too long (limit: 60 characters)'));
    const viaSubject = await sendOk('hamlet', { type: 'stream', to: 'Denmark', subject: 'old style', content: 'hi' });
    expect(store().messages.get(viaSubject)!.topic).toBe('old style');
  });

  it('reads "", "(no topic)" and the empty-topic display name as the empty topic where allowed', async () => {
    for (const topic of ['', '(no topic)', 'general chat']) {
      const id = await sendOk('hamlet', { type: 'stream', to: 'Verona', topic, content: `empty via "${topic}"` });
      expect(store().messages.get(id)!.topic).toBe('');
      expect(await readBack(t, 'hamlet', id, [{ operator: 'topic', operand: '' }])).toEqual({
        match_content: `<p>empty via &quot;${topic}&quot;</p>`,
        match_subject: '',
      });
    }
  });

  it("refuses the empty topic where the channel's topics_policy disables it", async () => {
    // Rome's topics_policy is disable_empty_topic.
    for (const topic of ['', '(no topic)', 'general chat']) {
      const r = await send('hamlet', { type: 'stream', to: 'Rome', topic, content: 'hi' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(
        error('BAD_REQUEST', 'Sending messages to the general chat is not allowed in this channel.'),
      );
    }
    expect(await send('hamlet', { type: 'stream', to: 'Rome', topic: 'forum', content: 'hi' })).toMatchObject({
      status: 200,
    });
  });

  it("follows the organization's realm_topics_policy for channels that inherit it", async () => {
    const realm = store().realm;
    store().updateRealm({ topics_policy: 'disable_empty_topic' });
    try {
      const r = await send('hamlet', { type: 'stream', to: 'Verona', topic: '', content: 'hi' });
      expect(r.body).toEqual(
        error('BAD_REQUEST', 'Sending messages to the general chat is not allowed in this channel.'),
      );
      // A channel's own allow_empty_topic wins over the organization's policy.
      store().streams.update(stream(t, 'Verona'), { topics_policy: 'allow_empty_topic' });
      expect(await send('hamlet', { type: 'stream', to: 'Verona', topic: '', content: 'hi' })).toMatchObject({
        status: 200,
      });
    } finally {
      store().updateRealm({ topics_policy: realm.topics_policy });
      store().streams.update(stream(t, 'Verona'), { topics_policy: 'inherit' });
    }
  });

  it('allows only the empty topic in an empty_topic_only channel', async () => {
    store().streams.update(stream(t, 'Scotland'), { topics_policy: 'empty_topic_only' });
    try {
      const named = await send('hamlet', { type: 'stream', to: 'Scotland', topic: 'Edinburgh', content: 'hi' });
      expect(named.body).toEqual(error('BAD_REQUEST', 'Only the general chat topic is allowed in this channel.'));
      expect(await send('hamlet', { type: 'stream', to: 'Scotland', topic: '', content: 'hi' })).toMatchObject({
        status: 200,
      });
    } finally {
      store().streams.update(stream(t, 'Scotland'), { topics_policy: 'inherit' });
    }
  });
});
