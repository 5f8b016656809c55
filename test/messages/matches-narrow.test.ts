// GET /messages/matches_narrow: every operator against the fixture's messages, the BAD_NARROW
// errors, the "received messages only" rule and search highlighting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const store = () => t.server.world.store;
const fixtureIds = Array.from({ length: 30 }, (_, i) => i + 1);

async function matching(who: string, narrow: unknown[], msgIds = fixtureIds) {
  const r = await t.as(who).get('/messages/matches_narrow', { msg_ids: msgIds, narrow });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.messages as Record<string, { match_content: string; match_subject: string }>;
}
const ids = async (who: string, narrow: unknown[], msgIds = fixtureIds) =>
  Object.keys(await matching(who, narrow, msgIds))
    .map(Number)
    .sort((a, b) => a - b);
const term = (operator: string, operand: unknown, negated = false) => ({ operator, operand, negated });

async function badNarrow(narrow: unknown[], desc: string) {
  const r = await t.as('hamlet').get('/messages/matches_narrow', { msg_ids: [1], narrow });
  expect(r.status).toBe(400);
  expect(r.body).toEqual(error('BAD_NARROW', `Invalid narrow operator: ${desc}`, { desc }));
}

describe('matches_narrow: what is considered', () => {
  it('answers only for messages the user received, with the HTML and the escaped topic', async () => {
    // Hamlet received neither 21 (moderation) nor 30 (aaron and the welcome bot).
    const all = await matching('hamlet', []);
    expect(
      Object.keys(all)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(fixtureIds.filter((id) => id !== 21 && id !== 30));
    expect(all['2']).toEqual({ match_content: store().messages.get(2)!.rendered_content, match_subject: 'test' });
    // Othello is not in the private channel "core team".
    expect(await ids('othello', [], [19, 20, 24])).toEqual([24]);
    // Unknown IDs are left out.
    expect(await ids('hamlet', [], [99999])).toEqual([]);
  });

  it('accepts legacy [operator, operand] pairs', async () => {
    expect(
      await ids('hamlet', [
        ['channel', 'Scotland'],
        ['topic', 'Edinburgh'],
      ]),
    ).toEqual([15, 16]);
  });
});

describe('matches_narrow: operators', () => {
  it('channel / stream, by name or ID, and negated', async () => {
    const denmark = store().streams.by('name', 'denmark')!.stream_id;
    expect(await ids('hamlet', [term('channel', 'Denmark')])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await ids('hamlet', [term('stream', denmark)])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await ids('hamlet', [term('channel', 'denmark', true)], [1, 7, 24])).toEqual([7, 24]);
  });

  it('channels: public and web-public', async () => {
    expect(await ids('hamlet', [term('channels', 'web-public')])).toEqual([22]);
    const pub = await ids('hamlet', [term('channels', 'public')]);
    expect(pub).toContain(1);
    expect(pub).not.toContain(19); // core team is private
    expect(pub).not.toContain(24); // a direct message
  });

  it('topic (case-insensitive), sender by email or ID', async () => {
    expect(await ids('hamlet', [term('channel', 'Denmark'), term('topic', 'COPENHAGEN')])).toEqual([4, 5, 6]);
    expect(await ids('hamlet', [term('topic', '')])).toEqual([13, 14]);
    expect(await ids('hamlet', [term('sender', 'othello@zulip.com')])).toEqual([3, 25]);
    expect(await ids('hamlet', [term('sender', t.user('othello').user_id)])).toEqual([3, 25]);
  });

  it('dm / pm-with, dm-including and group-pm-with', async () => {
    const othello = t.user('othello').user_id;
    expect(await ids('hamlet', [term('dm', [othello])])).toEqual([24, 25]);
    expect(await ids('hamlet', [term('pm-with', 'othello@zulip.com')])).toEqual([24, 25]);
    expect(await ids('hamlet', [term('dm', [])])).toEqual([28]);
    expect(await ids('hamlet', [term('dm-including', othello)])).toEqual([24, 25, 26, 27]);
    expect(await ids('hamlet', [term('group-pm-with', 'othello@zulip.com')])).toEqual([26, 27]);
  });

  it('is: dm, private, starred, unread, mentioned, resolved, followed, muted', async () => {
    expect(await ids('hamlet', [term('is', 'dm')])).toEqual([24, 25, 26, 27, 28, 29]);
    expect(await ids('hamlet', [term('is', 'private')])).toEqual([24, 25, 26, 27, 28, 29]);
    expect(await ids('hamlet', [term('is', 'starred')])).toEqual([3]);
    expect(await ids('hamlet', [term('is', 'unread')])).toEqual([13, 27, 29]);
    expect(await ids('hamlet', [term('is', 'mentioned')])).toEqual([3, 15]);
    expect(await ids('hamlet', [term('is', 'resolved')])).toEqual([11, 12]);
    expect(await ids('hamlet', [term('is', 'followed')])).toEqual([7, 8, 9]);
    expect(await ids('hamlet', [term('is', 'muted')])).toEqual([4, 5, 6]);
    expect(await ids('hamlet', [term('is', 'muted', true)], [4, 5, 7])).toEqual([7]);
  });

  it('has: link, image, attachment, reaction', async () => {
    expect(await ids('hamlet', [term('has', 'link')])).toEqual([3, 4, 6, 10, 20, 28]);
    expect(await ids('hamlet', [term('has', 'image')])).toEqual([6]);
    expect(await ids('hamlet', [term('has', 'reaction')])).toEqual([1, 2, 7, 26]);
    expect(await ids('hamlet', [term('has', 'attachment')])).toEqual([6, 20]);
    const sent = await t.as('hamlet').post('/messages', {
      type: 'stream',
      to: 'Denmark',
      topic: 'files',
      content: '[report.pdf](/user_uploads/2/ab/report.pdf)',
    });
    expect(await ids('hamlet', [term('has', 'attachment')], [sent.body.id])).toEqual([sent.body.id]);
  });

  it('id and near', async () => {
    expect(await ids('hamlet', [term('id', 5)])).toEqual([5]);
    expect(await ids('hamlet', [term('id', '7')])).toEqual([7]);
    expect(await ids('hamlet', [term('near', '5')], [1, 2])).toEqual([1, 2]);
  });
});

describe('matches_narrow: refused narrows', () => {
  it('names unknown operators and operands (BAD_NARROW)', async () => {
    await badNarrow([term('unknown', 'x')], 'unknown operator unknown');
    await badNarrow([term('is', 'bogus')], "unknown 'is' operand bogus");
    await badNarrow([term('has', 'bogus')], "unknown 'has' operand bogus");
    await badNarrow([term('channels', 'bogus')], 'unknown channels operand bogus');
    await badNarrow([term('in', 'bogus')], "unknown 'in' operand bogus");
    await badNarrow([term('channel', 'Atlantis')], 'unknown channel Atlantis');
    await badNarrow([term('sender', 'nobody@zulip.com')], 'unknown user nobody@zulip.com');
    await badNarrow([term('dm', [999])], 'unknown user in [999]');
    await badNarrow([term('dm-including', 999)], 'unknown user 999');
    await badNarrow([term('id', 'abc')], 'Invalid message ID');
    await badNarrow(
      [term('channel', 'Denmark'), term('is', 'dm')],
      'No message can be both a channel message and direct message',
    );
  });

  it('checks operand types', async () => {
    const cases: Array<[unknown, string]> = [
      [[term('topic', 5)], 'operand is not a string'],
      [[term('search', '  ')], 'operand cannot be blank.'],
      [[term('sender', [1])], 'operand is not a string or integer'],
      [[term('dm', 5)], 'operand is not a string or an integer list'],
    ];
    for (const [narrow, msg] of cases) {
      const r = await t.as('hamlet').get('/messages/matches_narrow', { msg_ids: [1], narrow });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
      expect(r.body.msg).toBe(msg);
    }
  });

  it('needs both parameters', async () => {
    const r = await t.as('hamlet').get('/messages/matches_narrow', { msg_ids: [1] });
    expect(r.body).toEqual(error('REQUEST_VARIABLE_MISSING', "Missing 'narrow' argument", { var_name: 'narrow' }));
  });
});

describe('matches_narrow: search', () => {
  it('finds messages containing every word (stemmed) and highlights them in content and topic', async () => {
    const found = await matching('hamlet', [term('search', 'question')]);
    expect(found).toEqual({
      2: {
        match_content:
          '<p>To be, or not to be, that is the <span class="highlight">question</span>. Run <code>npm test</code> first.</p>',
        match_subject: 'test',
      },
    });
    const tests = await matching('hamlet', [term('channel', 'Verona'), term('search', 'tests')]);
    expect(Object.keys(tests)).toEqual(['10']);
    expect(tests['10']).toEqual({
      match_content:
        '<p><span class="highlight">Testing</span> in <a class="stream" data-stream-id="3" href="/#narrow/channel/3-Verona">#Verona</a>.</p>',
      match_subject: '<span class="highlight">test</span>',
    });
    expect(await ids('hamlet', [term('search', 'hello world')])).toEqual([1]);
  });

  it('never highlights inside a tag', async () => {
    const found = await matching('hamlet', [term('search', 'zulip')]);
    expect(found['4'].match_content).toBe(
      '<p>Check out <a href="https://zulip.com">the <span class="highlight">Zulip</span> homepage</a>.</p>',
    );
    // "github" occurs only in an href: no match.
    expect(await ids('hamlet', [term('search', 'github')])).toEqual([]);
  });

  it('matches quoted phrases as written, ignores stop words, and escapes the topic', async () => {
    expect(await ids('hamlet', [term('search', '"lender be"')])).toEqual([9]);
    expect(await ids('hamlet', [term('search', '"be lender"')])).toEqual([]);
    expect(await ids('hamlet', [term('search', 'the')])).toEqual([]);
    const sent = await t
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Denmark', topic: 'Q&A <time>', content: 'Ask me anything & more' });
    const found = await matching('hamlet', [term('search', 'time')], [sent.body.id]);
    expect(found[String(sent.body.id)]).toEqual({
      match_content: '<p>Ask me anything &amp; more</p>',
      match_subject: 'Q&amp;A &lt;<span class="highlight">time</span>&gt;',
    });
  });

  it('highlights nothing for a negated search', async () => {
    const found = await matching('hamlet', [term('channel', 'Denmark'), term('search', 'question', true)], [1, 2]);
    expect(found).toEqual({ 1: { match_content: store().messages.get(1)!.rendered_content, match_subject: 'test' } });
  });
});
