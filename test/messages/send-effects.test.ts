// POST /messages, continued: wildcard mentions, mentions and flags,
// read_by_sender, local echo, the automatic visibility policy and older feature levels.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
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

describe('POST /messages: wildcard mentions', () => {
  const threshold = () => store().realm.wildcard_mention_large_threshold;

  it("refuses channel wildcards in a channel larger than the organization's threshold, outside can_mention_many_users_group", async () => {
    const saved = threshold();
    // Denmark has 10 subscribers: "many" once the threshold is below that.
    store().updateRealm({ wildcard_mention_large_threshold: 5 });
    try {
      for (const w of ['all', 'everyone', 'channel', 'stream']) {
        const r = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'party', content: `@**${w}** cake!` });
        expect(r.status).toBe(400);
        expect(r.body).toEqual(
          error(
            'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
            'You do not have permission to use channel wildcard mentions in this channel.',
          ),
        );
      }
      // An administrator holds can_mention_many_users_group; a silent wildcard notifies nobody.
      expect(
        await send('iago', { type: 'stream', to: 'Denmark', topic: 'party', content: '@**all** cake!' }),
      ).toMatchObject({ status: 200 });
      expect(
        await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'party', content: '@_**all** cake!' }),
      ).toMatchObject({ status: 200 });
      // Scotland has 5 subscribers: not more than the threshold.
      expect(
        await send('hamlet', { type: 'stream', to: 'Scotland', topic: 'party', content: '@**all** cake!' }),
      ).toMatchObject({ status: 200 });
    } finally {
      store().updateRealm({ wildcard_mention_large_threshold: saved });
    }
    // With the fixture's threshold (15), Denmark is not large.
    expect(
      await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'party', content: '@**all** cake!' }),
    ).toMatchObject({ status: 200 });
  });

  it('refuses the topic wildcard in a topic with more participants than the threshold', async () => {
    const saved = threshold();
    // Verona > greetings has senders hamlet, cordelia and polonius; with othello sending, 4 participants.
    store().updateRealm({ wildcard_mention_large_threshold: 3 });
    try {
      const r = await send('othello', {
        type: 'stream',
        to: 'Verona',
        topic: 'greetings',
        content: '@**topic** hello',
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(
        error(
          'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
          'You do not have permission to use topic wildcard mentions in this topic.',
        ),
      );
      expect(
        await send('iago', { type: 'stream', to: 'Verona', topic: 'greetings', content: '@**topic** hello' }),
      ).toMatchObject({ status: 200 });
      // A fresh topic has one participant, the sender.
      expect(
        await send('othello', { type: 'stream', to: 'Verona', topic: 'quiet corner', content: '@**topic** hello' }),
      ).toMatchObject({ status: 200 });
    } finally {
      store().updateRealm({ wildcard_mention_large_threshold: saved });
    }
  });

  it('flags wildcard mentions for the recipients (read back with is:mentioned)', async () => {
    const channelWide = await sendOk('iago', {
      type: 'stream',
      to: 'Scotland',
      topic: 'meeting',
      content: '@**all** meeting now',
    });
    expect(store().messages.get(channelWide)!.flags[String(t.user('othello').user_id)]).toEqual([
      'stream_wildcard_mentioned',
    ]);
    expect(await readBack(t, 'othello', channelWide, [{ operator: 'is', operand: 'mentioned' }])).toBeDefined();

    await sendOk('othello', { type: 'stream', to: 'Scotland', topic: 'lunch', content: 'who is hungry?' });
    const topicWide = await sendOk('iago', {
      type: 'stream',
      to: 'Scotland',
      topic: 'lunch',
      content: '@**topic** lunch time',
    });
    const flags = store().messages.get(topicWide)!.flags;
    expect(flags[String(t.user('othello').user_id)]).toEqual(['topic_wildcard_mentioned']);
    // Cordelia took no part in the topic.
    expect(flags[String(t.user('cordelia').user_id)]).toEqual([]);
    expect(await readBack(t, 'cordelia', topicWide, [{ operator: 'is', operand: 'mentioned' }])).toBeUndefined();
  });
});

describe('POST /messages: mentions and flags', () => {
  it('flags users mentioned by name or group, not silent mentions', async () => {
    const id = await sendOk('hamlet', {
      type: 'stream',
      to: 'Denmark',
      topic: 'mentions',
      content: '@**Othello, the Moor of Venice** and @_**Iago** and @*hamletcharacters*',
    });
    const m = store().messages.get(id)!;
    expect(m.flags[String(t.user('othello').user_id)]).toEqual(['mentioned']);
    expect(m.flags[String(t.user('iago').user_id)]).toEqual([]);
    expect(m.flags[String(t.user('cordelia').user_id)]).toEqual(['mentioned']);
    expect(await readBack(t, 'othello', id, [{ operator: 'is', operand: 'mentioned' }])).toBeDefined();
    expect(await readBack(t, 'iago', id, [{ operator: 'is', operand: 'mentioned' }])).toBeUndefined();
    expect(m.rendered_content).toContain(
      `<span class="user-mention" data-user-id="${t.user('othello').user_id}">@Othello, the Moor of Venice</span>`,
    );
  });

  it('gives flags to every subscriber, and to the sender even when not subscribed', async () => {
    const id = await sendOk('polonius', {
      type: 'stream',
      to: 'Denmark',
      topic: 'visitors',
      content: 'A guest speaks',
    });
    const m = store().messages.get(id)!;
    const subscribers = store()
      .subscriptions.filter((s) => s.stream_id === m.stream_id)
      .map((s) => String(s.user_id));
    expect(Object.keys(m.flags).sort()).toEqual([...subscribers, String(t.user('polonius').user_id)].sort());
  });
});

describe('POST /messages: read_by_sender', () => {
  const unreadForSender = async (id: number) =>
    !!(await readBack(t, 'hamlet', id, [{ operator: 'is', operand: 'unread' }]));

  it('is honoured when given', async () => {
    const read = await sendOk('hamlet', {
      type: 'stream',
      to: 'Denmark',
      topic: 'rbs',
      content: 'a',
      read_by_sender: true,
    });
    expect(await unreadForSender(read)).toBe(false);
    const unread = await sendOk('hamlet', {
      type: 'stream',
      to: 'Denmark',
      topic: 'rbs',
      content: 'b',
      read_by_sender: false,
    });
    expect(await unreadForSender(unread)).toBe(true);
  });

  it("is decided from the client's name when absent", async () => {
    const api = await sendOk('hamlet', { type: 'stream', to: 'Denmark', topic: 'rbs', content: 'c' });
    expect(await unreadForSender(api)).toBe(true);
    const mobile = new Client(t.base, t.user('hamlet'), { 'user-agent': 'ZulipMobile/27.210 (Android 14)' });
    const r = await mobile.post('/messages', { type: 'stream', to: 'Denmark', topic: 'rbs', content: 'd' });
    expect(await unreadForSender(r.body.id)).toBe(false);
    expect(store().messages.get(r.body.id)!.client).toBe('ZulipMobile');
  });
});

describe('POST /messages: local echo', () => {
  it('needs queue_id and local_id together', async () => {
    const noLocal = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'x', content: 'hi', queue_id: 'abc' });
    expect(noLocal.body).toEqual(error('BAD_REQUEST', 'Missing local_id'));
    const noQueue = await send('hamlet', {
      type: 'stream',
      to: 'Denmark',
      topic: 'x',
      content: 'hi',
      local_id: '1.01',
    });
    expect(noQueue.body).toEqual(error('BAD_REQUEST', 'Missing queue_id'));
  });

  it("puts local_message_id in the sender's named queue only, and flags per recipient", async () => {
    const mine = await registerQueue(t, 'hamlet', ['message']);
    const other = await registerQueue(t, 'hamlet', ['message']);
    const theirs = await registerQueue(t, 'othello', ['message']);
    const id = await sendOk('hamlet', {
      type: 'stream',
      to: 'Denmark',
      topic: 'echo',
      content: 'hi @**Othello, the Moor of Venice**',
      queue_id: mine,
      local_id: '42.01',
      read_by_sender: true,
    });
    const [echo] = await eventsOf(t, 'hamlet', mine);
    expect(echo).toMatchObject({ type: 'message', local_message_id: '42.01', flags: ['read'] });
    expect(echo.message).toMatchObject({
      id,
      sender_email: 'hamlet@zulip.com',
      display_recipient: 'Denmark',
      subject: 'echo',
      type: 'stream',
    });
    const [plain] = await eventsOf(t, 'hamlet', other);
    expect(plain).not.toHaveProperty('local_message_id');
    const [forOthello] = await eventsOf(t, 'othello', theirs);
    expect(forOthello).toMatchObject({ type: 'message', flags: ['mentioned'], message: { id } });
    expect(forOthello).not.toHaveProperty('local_message_id');
  });
});

describe('POST /messages: automatic visibility policy', () => {
  const followed = (id: number) => readBack(t, 'hamlet', id, [{ operator: 'is', operand: 'followed' }]);

  it('follows a topic the sender starts (hamlet: automatically_follow_topics_policy = on initiation)', async () => {
    const q = await registerQueue(t, 'hamlet', ['user_topic']);
    const r = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'brand new topic', content: 'first!' });
    const url = `${t.server.world.store.realm.url}/#narrow/channel/1-Denmark/topic/brand.20new.20topic/near/${r.body.id}`;
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      id: r.body.id,
      message_url: url,
      message_link: `[#Denmark > brand new topic @ 💬](${url})`,
      automatic_new_visibility_policy: 3,
    });
    expect(await followed(r.body.id)).toBeDefined();
    const [event] = await eventsOf(t, 'hamlet', q);
    expect(event).toMatchObject({
      type: 'user_topic',
      stream_id: stream(t, 'Denmark').stream_id,
      topic_name: 'brand new topic',
      visibility_policy: 3,
    });
    // A second message in the topic changes nothing.
    const again = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'brand new topic', content: 'second' });
    expect(again.body).not.toHaveProperty('automatic_new_visibility_policy');
  });

  it('does not follow a topic the sender only joins', async () => {
    const r = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'test', content: 'joining in' });
    expect(r.body).not.toHaveProperty('automatic_new_visibility_policy');
    expect(await followed(r.body.id)).toBeUndefined();
  });

  it('unmutes a topic in a muted channel when the sender sends (automatically_unmute... = on send)', async () => {
    const sub = store().subscriptions.get(`${t.user('hamlet').user_id}:${stream(t, 'Denmark').stream_id}`)!;
    store().subscriptions.update(sub, { is_muted: true });
    try {
      const r = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'test', content: 'still here' });
      expect(r.body.automatic_new_visibility_policy).toBe(2);
      // Unmuted, the topic no longer counts as muted for hamlet.
      expect(await readBack(t, 'hamlet', r.body.id, [{ operator: 'is', operand: 'muted' }])).toBeUndefined();
    } finally {
      store().subscriptions.update(sub, { is_muted: false });
    }
  });

  it('leaves the policy alone when the settings say never', async () => {
    const hamlet = t.user('hamlet');
    store().users.update(hamlet, { settings: { ...hamlet.settings, automatically_follow_topics_policy: 4 } });
    try {
      const r = await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'never followed', content: 'x' });
      expect(r.body).not.toHaveProperty('automatic_new_visibility_policy');
      expect(await followed(r.body.id)).toBeUndefined();
    } finally {
      store().users.update(hamlet, { settings: { ...hamlet.settings, automatically_follow_topics_policy: 3 } });
    }
  });
});

describe('POST /messages at older feature levels', () => {
  const at = (level: number) => new Client(t.base, t.user('hamlet'), { 'x-mock-feature-level': String(level) });

  it('gives wildcard refusals the generic code before FL 229', async () => {
    const saved = store().realm.wildcard_mention_large_threshold;
    store().updateRealm({ wildcard_mention_large_threshold: 5 });
    try {
      const old = await at(228).post('/messages', {
        type: 'stream',
        to: 'Denmark',
        topic: 'old',
        content: '@**all** hi',
      });
      expect(old.body).toEqual(
        // Below FL 255 the real server's strings still said "stream".
        error('BAD_REQUEST', 'You do not have permission to use stream wildcard mentions in this stream.'),
      );
      const current = await at(229).post('/messages', {
        type: 'stream',
        to: 'Denmark',
        topic: 'old',
        content: '@**all** hi',
      });
      expect(current.body.code).toBe('STREAM_WILDCARD_MENTION_NOT_ALLOWED');
    } finally {
      store().updateRealm({ wildcard_mention_large_threshold: saved });
    }
  });

  it('refuses the empty topic before FL 334, and keeps "(no topic)" as a name before FL 370', async () => {
    const empty = await at(333).post('/messages', { type: 'stream', to: 'Verona', topic: '', content: 'hi' });
    expect(empty.body).toEqual(error('BAD_REQUEST', "Topic can't be empty!"));
    const literal = await at(369).post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: '(no topic)',
      content: 'hi',
    });
    expect(store().messages.get(literal.body.id)!.topic).toBe('(no topic)');
    const alias = await at(370).post('/messages', { type: 'stream', to: 'Verona', topic: '(no topic)', content: 'hi' });
    expect(store().messages.get(alias.body.id)!.topic).toBe('');
  });

  it("knows the type 'channel' from FL 248 and 'direct' from FL 174", async () => {
    expect(
      (await at(247).post('/messages', { type: 'channel', to: 'Verona', topic: 'x', content: 'hi' })).body,
    ).toEqual(error('BAD_REQUEST', 'Invalid type'));
    expect((await at(248).post('/messages', { type: 'channel', to: 'Verona', topic: 'x', content: 'hi' })).status).toBe(
      200,
    );
    expect(
      (await at(173).post('/messages', { type: 'direct', to: [t.user('othello').user_id], content: 'hi' })).body,
    ).toEqual(error('BAD_REQUEST', 'Invalid type'));
    expect(
      (await at(173).post('/messages', { type: 'private', to: [t.user('othello').user_id], content: 'hi' })).status,
    ).toBe(200);
  });
});
