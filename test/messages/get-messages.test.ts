// GET /messages and GET /messages/{message_id}: anchors, windows, narrows, what the user may see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { stream } from '../helpers/fixture-rows.js';
import { ids, sendToChannel } from '../helpers/messages.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const store = () => t.server.world.store;
const get = (who: string, params: Record<string, unknown>) => t.as(who).get('/messages', params);
/** IDs of the messages `who` received, in order. */
const received = (who: string) =>
  store()
    .messages.all()
    .filter((m) => String(t.user(who).user_id) in m.flags)
    .map((m) => m.id);

describe('GET /messages: the window around an anchor', () => {
  it('newest: the last num_before messages the user received, found_newest, the anchor as sent', async () => {
    const r = await get('hamlet', { anchor: 'newest', num_before: 5, num_after: 0 });
    expect(r.status).toBe(200);
    expect(ids(r.body.messages)).toEqual(received('hamlet').slice(-5));
    expect(r.body).toMatchObject({
      anchor: 10000000000000000,
      found_anchor: false,
      found_newest: true,
      found_oldest: false,
      history_limited: false,
    });
  });

  it('oldest: the first num_after messages, found_oldest', async () => {
    const r = await get('hamlet', { anchor: 'oldest', num_before: 0, num_after: 3 });
    expect(ids(r.body.messages)).toEqual(received('hamlet').slice(0, 3));
    expect(r.body).toMatchObject({ anchor: 0, found_oldest: true, found_newest: false, found_anchor: false });
  });

  it('an ID anchor: before, the anchor and after; found_oldest/found_newest when a side runs out', async () => {
    const all = received('hamlet');
    const anchor = all[3];
    const r = await get('hamlet', { anchor: String(anchor), num_before: 10, num_after: 2 });
    expect(ids(r.body.messages)).toEqual(all.slice(0, 6));
    expect(r.body).toMatchObject({ anchor, found_anchor: true, found_oldest: true, found_newest: false });
    const excluded = await get('hamlet', {
      anchor: String(anchor),
      num_before: 2,
      num_after: 0,
      include_anchor: false,
    });
    expect(ids(excluded.body.messages)).toEqual(all.slice(1, 3));
    expect(excluded.body.found_anchor).toBe(false);
  });

  it('an anchor the user did not receive is not found, and the window still forms around it', async () => {
    // Message 21 is in the moderation channel, which hamlet is not in.
    const r = await get('hamlet', { anchor: 21, num_before: 1, num_after: 1 });
    expect(r.body.found_anchor).toBe(false);
    expect(ids(r.body.messages)).toEqual([20, 22]);
  });

  it('first_unread: the first unread message, leaving out muted topics', async () => {
    // Hamlet's first unread fixture message is 13; 6 (Copenhagen) is read, and he muted Copenhagen.
    const r = await get('hamlet', { anchor: 'first_unread', num_before: 0, num_after: 1 });
    expect(r.body).toMatchObject({ anchor: 13, found_anchor: true });
    const id = await sendToChannel(t, 'othello', 'Denmark', 'Copenhagen', 'muted topic, unread');
    const stillFirst = await get('hamlet', {
      anchor: 'first_unread',
      num_before: 0,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'unread' }],
    });
    expect(stillFirst.body.anchor).toBe(13);
    // Even narrowed to the muted topic, its messages are not the first unread.
    const muted = await get('hamlet', {
      anchor: 'first_unread',
      num_after: 1,
      narrow: [
        { operator: 'channel', operand: 'Denmark' },
        { operator: 'topic', operand: 'Copenhagen' },
      ],
    });
    expect(muted.body).toMatchObject({ anchor: 10000000000000000, messages: [] });
    expect(store().messages.get(id)!.flags[String(t.user('hamlet').user_id)]).toEqual([]);
    const fresh = await sendToChannel(t, 'othello', 'Denmark', 'fresh', 'unread, not muted');
    const inTopic = await get('hamlet', {
      anchor: 'first_unread',
      num_after: 1,
      narrow: [
        { operator: 'channel', operand: 'Denmark' },
        { operator: 'topic', operand: 'fresh' },
      ],
    });
    expect(inTopic.body).toMatchObject({ anchor: fresh, found_anchor: true });
    const none = await get('iago', {
      anchor: 'first_unread',
      num_before: 1,
      narrow: [{ operator: 'channel', operand: 'Scotland' }],
    });
    expect(none.body).toMatchObject({ anchor: 10000000000000000, found_newest: true, found_anchor: false });
  });

  it('answers the real errors for bad anchors and windows', async () => {
    expect((await get('hamlet', { num_before: 1 })).body).toEqual(error('BAD_REQUEST', "Missing 'anchor' argument."));
    expect((await get('hamlet', { anchor: 'middle' })).body).toEqual(error('BAD_REQUEST', 'Invalid anchor'));
    expect((await get('hamlet', { anchor: 'newest', num_before: 4000, num_after: 1001 })).body).toEqual(
      error('BAD_REQUEST', 'Too many messages requested (maximum 5000).'),
    );
    expect((await get('hamlet', { anchor: 5, num_before: 1, num_after: 1, include_anchor: false })).body).toEqual(
      error('BAD_REQUEST', 'The anchor can only be excluded at an end of the range'),
    );
    const both = await get('hamlet', { anchor: 'newest', message_ids: [1] });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({
      code: 'BAD_REQUEST',
      parameters: 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor',
    });
    const negative = await get('hamlet', { anchor: 'newest', num_before: -1 });
    expect(negative.status).toBe(400);
  });

  it('use_first_unread_anchor is the legacy first_unread', async () => {
    const r = await get('hamlet', { use_first_unread_anchor: true, num_after: 0 });
    expect(r.body.anchor).toBe(13);
  });
});

describe('GET /messages: narrows and history', () => {
  it('a channel narrow includes history the user may read, flagged read + historical', async () => {
    // Cordelia is not subscribed to Rome (5)... she is; Othello is not, and Rome is public.
    const r = await get('othello', {
      anchor: 'newest',
      num_before: 10,
      narrow: [{ operator: 'channel', operand: 'Rome' }],
    });
    expect(ids(r.body.messages)).toEqual([17]);
    expect(r.body.messages[0].flags).toEqual(['read', 'historical']);
    // Without the channel narrow only received messages count.
    const all = await get('othello', { anchor: 'newest', num_before: 1000 });
    expect(ids(all.body.messages)).not.toContain(17);
  });

  it('is: terms about personal flags turn history off; a private channel without shared history never shows it', async () => {
    const starred = await get('othello', {
      anchor: 'newest',
      num_before: 10,
      narrow: [
        { operator: 'channel', operand: 'Rome' },
        { operator: 'is', operand: 'unread' },
      ],
    });
    expect(starred.body.messages).toEqual([]);
    // core team (private, protected history): prospero is not subscribed.
    const core = await get('prospero', {
      anchor: 'newest',
      num_before: 10,
      narrow: [{ operator: 'channel', operand: stream(t, 'core team').stream_id }],
    });
    expect(core.body.messages).toEqual([]);
  });

  it('guests see the history of web-public channels only', async () => {
    const wales = await get('polonius', {
      anchor: 'newest',
      num_before: 10,
      narrow: [{ operator: 'channel', operand: 'Wales' }],
    });
    expect(ids(wales.body.messages)).toEqual([22]);
    const rome = await get('polonius', {
      anchor: 'newest',
      num_before: 10,
      narrow: [{ operator: 'channel', operand: 'Rome' }],
    });
    expect(rome.body.messages).toEqual([]);
  });

  it('filters by the narrow, marks search hits, and refuses a bad narrow', async () => {
    const dm = await get('hamlet', {
      anchor: 'newest',
      num_before: 100,
      narrow: [{ operator: 'dm', operand: [t.user('othello').user_id] }],
    });
    expect(ids(dm.body.messages)).toEqual([24, 25]);
    const search = await get('hamlet', {
      anchor: 'newest',
      num_before: 100,
      narrow: [{ operator: 'search', operand: 'release' }],
    });
    expect(ids(search.body.messages)).toContain(26);
    const hit = search.body.messages.find((m: any) => m.id === 26);
    expect(hit.match_content).toContain('<span class="highlight">release</span>');
    expect(hit.match_subject).toBe('');
    const bad = await get('hamlet', { anchor: 'newest', narrow: [{ operator: 'channel', operand: 'Atlantis' }] });
    expect(bad.body).toEqual(
      error('BAD_NARROW', 'Invalid narrow operator: unknown channel Atlantis', { desc: 'unknown channel Atlantis' }),
    );
  });

  it('search follows edits: new words of the content and topic match, the replaced ones no longer do', async () => {
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'harbour', 'the lighthouses are shining');
    const search = async (operand: string) =>
      ids(
        (await get('hamlet', { anchor: 'newest', num_before: 5, narrow: [{ operator: 'search', operand }] })).body
          .messages,
      );
    expect(await search('lighthouse')).toContain(id);
    expect(await search('harbour')).toContain(id);
    const edit = await t.as('hamlet').patch(`/messages/${id}`, { content: 'the beacons are dark', topic: 'coast' });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(await search('lighthouse')).not.toContain(id);
    expect(await search('harbour')).not.toContain(id);
    expect(await search('beacon')).toContain(id);
    expect(await search('coast')).toContain(id);
    expect(await search('"beacons are dark"')).toContain(id);
    expect(await search('"beacons are bright"')).not.toContain(id);
  });

  it('message_ids: the requested messages the user may access, in ID order, without anchor', async () => {
    const r = await get('othello', { message_ids: [25, 17, 21, 9999, 24] });
    expect(r.status).toBe(200);
    expect(ids(r.body.messages)).toEqual([17, 24, 25]);
    expect(r.body).toMatchObject({
      found_anchor: false,
      found_oldest: false,
      found_newest: false,
      history_limited: false,
    });
    expect(r.body).not.toHaveProperty('anchor');
  });
});

describe('the message fields', () => {
  it('has the real fields, with content per apply_markdown and avatar_url per client_gravatar', async () => {
    const html = await get('hamlet', { message_ids: [3] });
    const m = html.body.messages[0];
    expect(m).toMatchObject({
      id: 3,
      sender_id: t.user('othello').user_id,
      sender_email: 'othello@zulip.com',
      type: 'stream',
      stream_id: 1,
      display_recipient: 'Denmark',
      subject: 'test',
      content_type: 'text/html',
      recipient_id: 1,
      avatar_url: null,
      is_me_message: false,
      submessages: [],
      reactions: [],
    });
    expect(m.flags).toEqual(['read', 'mentioned', 'starred']);
    expect(m.content).toMatch(/^<p>/);
    expect(m).not.toHaveProperty('rendered_content');
    const md = await get('hamlet', { message_ids: [3], apply_markdown: false, client_gravatar: false });
    expect(md.body.messages[0]).toMatchObject({
      content: '@**King Hamlet** can you look at #123?',
      content_type: 'text/x-markdown',
    });
    expect(md.body.messages[0].avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\//);
  });

  it('shows the empty topic by its display name unless allow_empty_topic_name; adds wildcard_mentioned', async () => {
    const r = await get('hamlet', { message_ids: [14, 15] });
    expect(r.body.messages[0].subject).toBe('general chat');
    const raw = await get('hamlet', { message_ids: [14], allow_empty_topic_name: true });
    expect(raw.body.messages[0].subject).toBe('');
    expect(r.body.messages[1].flags).toContain('wildcard_mentioned');
  });
});

describe('GET /messages/{message_id}', () => {
  it('returns one accessible message with raw_content; Invalid message(s) otherwise', async () => {
    const r = await t.as('othello').get('/messages/17');
    expect(r.status).toBe(200);
    expect(r.body.raw_content).toBe(store().messages.get(17)!.content);
    expect(r.body.message).toMatchObject({ id: 17, flags: ['read', 'historical'], content_type: 'text/html' });
    const hidden = await t.as('othello').get('/messages/19');
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
    expect((await t.as('othello').get('/messages/99999')).body).toEqual(error('BAD_REQUEST', 'Invalid message(s)'));
  });
});

describe('speed on a large state', () => {
  it('answers windows over 100,000 messages without scanning them all', async () => {
    const big = await startTestServer();
    try {
      const s = big.server.world.store;
      const hamlet = big.user('hamlet').user_id;
      const base = s.messages.all().at(-1)!;
      let id = s.nextId('messages');
      for (let i = 0; i < 100_000; i++, id = s.nextId('messages')) {
        s.messages.insert({
          ...base,
          id,
          type: 'stream',
          stream_id: 1 + (i % 3),
          topic: `t${i % 50}`,
          recipient_ids: [],
          content: `m${i}`,
          rendered_content: `<p>m${i}</p>`,
          flags: { [hamlet]: ['read'] },
          reactions: [],
        });
      }
      const started = performance.now();
      for (let i = 0; i < 20; i++) {
        const r = await big.as('hamlet').get('/messages', {
          anchor: 'newest',
          num_before: 50,
          narrow: [{ operator: 'channel', operand: 'Denmark' }],
        });
        expect(r.body.messages).toHaveLength(50);
        const mid = await big
          .as('hamlet')
          .get('/messages', { anchor: String(id - 50_000), num_before: 25, num_after: 25 });
        expect(mid.body.messages).toHaveLength(51);
      }
      // Loose enough for a loaded 2-core CI machine: 60 ms was crossed at load 9. (The property
      // test of test/messages/window-candidates.test.ts holds the windows' answers; this only
      // guards against a gross slowdown.)
      expect((performance.now() - started) / 40).toBeLessThan(150);
    } finally {
      await big.close();
    }
  }, 60_000);
});

describe('by feature level', () => {
  it('GET /messages/{id} gives only raw_content before FL 120; message_ids needs FL 300', async () => {
    const old = await t.as('hamlet', { 'X-Mock-Feature-Level': '119' }).get('/messages/3');
    expect(old.status).toBe(200);
    expect(old.body).toEqual({ result: 'success', msg: '', raw_content: '@**King Hamlet** can you look at #123?' });
    const beforeIds = await t
      .as('hamlet', { 'X-Mock-Feature-Level': '299' })
      .get('/messages', { anchor: 'newest', num_before: 1, message_ids: [3] });
    expect(beforeIds.status).toBe(200);
    expect(beforeIds.body.ignored_parameters_unsupported).toEqual(['message_ids']);
  });
});
