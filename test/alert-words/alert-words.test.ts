// GET, POST and DELETE /users/me/alert_words: the caller's own list (compared without case,
// trimmed, the real server's length limit), the `alert_words` event only the caller's queues get,
// and the `has_alert_word` flag new messages get for recipients whose words they contain.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { sendMessage, sendToChannel } from '../helpers/messages.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
beforeEach(() => t.server.world.reset());
afterAll(async () => {
  await t.close();
});

const words = async (who: string) => (await t.as(who).get('/users/me/alert_words')).body.alert_words;
const flagsOf = async (who: string, id: number) =>
  (await t.as(who).get(`/messages/${id}`)).body.message.flags as string[];

describe('the alert word list', () => {
  it('reads the fixture words back, each user their own', async () => {
    const r = await t.as('hamlet').get('/users/me/alert_words');
    expect(r.body).toEqual({ result: 'success', msg: '', alert_words: ['denmark', 'castle', 'ophelia'] });
    expect(await words('othello')).toEqual([]);
  });

  it('adds trimmed words, ignoring empty ones and ones present in another case, the last new spelling winning', async () => {
    const hamlet = await registerQueue(t, 'hamlet', ['alert_words']);
    const othello = await registerQueue(t, 'othello', ['alert_words']);
    const r = await t
      .as('hamlet')
      .post('/users/me/alert_words', { alert_words: ['  Yorick ', 'CASTLE', '', '   ', 'yorick', 'poor fellow'] });
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      alert_words: ['denmark', 'castle', 'ophelia', 'yorick', 'poor fellow'],
    });
    expect(await words('hamlet')).toEqual(['denmark', 'castle', 'ophelia', 'yorick', 'poor fellow']);
    expect(await eventsOf(t, 'hamlet', hamlet)).toEqual([
      { id: 0, type: 'alert_words', alert_words: ['denmark', 'castle', 'ophelia', 'yorick', 'poor fellow'] },
    ]);
    expect(await eventsOf(t, 'othello', othello)).toEqual([]);
  });

  it('removes words compared without case, ignores unknown ones, and announces the list even when nothing changed', async () => {
    const queue = await registerQueue(t, 'hamlet', ['alert_words']);
    const r = await t.as('hamlet').delete('/users/me/alert_words', { alert_words: ['DENMARK', 'nothing', ' castle'] });
    expect(r.body).toEqual({ result: 'success', msg: '', alert_words: ['castle', 'ophelia'] });
    await t.as('hamlet').delete('/users/me/alert_words', { alert_words: ['nothing'] });
    expect(await words('hamlet')).toEqual(['castle', 'ophelia']);
    expect((await eventsOf(t, 'hamlet', queue)).map((e) => e.alert_words)).toEqual([
      ['castle', 'ophelia'],
      ['castle', 'ophelia'],
    ]);
  });

  it('refuses a word over 100 characters (counted before trimming) and changes nothing', async () => {
    const r = await t.as('hamlet').post('/users/me/alert_words', { alert_words: ['fine', ` ${'x'.repeat(100)}`] });
    expectError(r, 400, 'BAD_REQUEST', 'alert_words[1] is too long (limit: 100 characters)');
    expect(await words('hamlet')).toEqual(['denmark', 'castle', 'ophelia']);
    const ok = await t.as('hamlet').post('/users/me/alert_words', { alert_words: ['😀'.repeat(100)] });
    expect(ok.status).toBe(200);
  });

  it('refuses a missing list or one that is not of strings', async () => {
    expectError(
      await t.as('hamlet').post('/users/me/alert_words', {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'alert_words' argument",
    );
    expectError(
      await t.as('hamlet').delete('/users/me/alert_words', {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'alert_words' argument",
    );
    expectError(
      await t.as('hamlet').post('/users/me/alert_words', { alert_words: [1] }),
      400,
      'BAD_REQUEST',
      'alert_words[0] is not a string',
    );
  });
});

describe('has_alert_word on new messages', () => {
  const alerted = async (content: string) => {
    const id = await sendToChannel(t, 'othello', 'Denmark', 'alerts', content);
    return (await flagsOf('hamlet', id)).includes('has_alert_word');
  };

  it('flags whole words in any case, with the punctuation the real server allows around them', async () => {
    expect(await alerted('Welcome to the Castle.')).toBe(true);
    expect(await alerted('(castle)')).toBe(true);
    expect(await alerted('**castle**: a `castle`!')).toBe(true);
    expect(await alerted('> castle')).toBe(true);
    expect(await alerted('castles and a sandcastle')).toBe(false);
    expect(await alerted('the castle-keep')).toBe(false);
  });

  it('keeps the real server quirks: no check before a word at the second character, and a closing quote ends nothing', async () => {
    expect(await alerted('xcastle')).toBe(true);
    expect(await alerted('a xcastle')).toBe(false);
    expect(await alerted('"castle"')).toBe(false);
  });

  it('skips fenced code but not quote blocks, and matches phrases', async () => {
    expect(await alerted('```\ncastle\n```')).toBe(false);
    expect(await alerted('~~~ python\nno castle here\n~~~\nafter')).toBe(false);
    expect(await alerted('```quote\nthe castle\n```')).toBe(true);
    await t.as('hamlet').post('/users/me/alert_words', { alert_words: ['Poor Yorick'] });
    expect(await alerted('alas, poor yorick!')).toBe(true);
    expect(await alerted('alas, poor\nyorick')).toBe(false);
  });

  it('flags each recipient by their own words, in the message event, the read back and the is:alerted narrow', async () => {
    const hamlet = await registerQueue(t, 'hamlet', ['message']);
    const cordelia = await registerQueue(t, 'cordelia', ['message']);
    const id = await sendMessage(t, 'othello', {
      type: 'private',
      to: JSON.stringify([4, 6]),
      content: 'King Lear is in the castle',
    });
    const [toHamlet] = await eventsOf(t, 'hamlet', hamlet);
    const [toCordelia] = await eventsOf(t, 'cordelia', cordelia);
    expect(toHamlet.flags).toEqual(['has_alert_word']);
    expect(toCordelia.flags).toContain('has_alert_word');
    expect(await flagsOf('othello', id)).not.toContain('has_alert_word');
    // The real server only flags: everyone gets the same rendering, without highlighting.
    const rendered = async (who: string) => (await t.as(who).get(`/messages/${id}`)).body.message.content;
    expect(await rendered('hamlet')).toBe('<p>King Lear is in the castle</p>');
    expect(await rendered('cordelia')).toBe(await rendered('hamlet'));
    const narrow = await t.as('hamlet').get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'is', operand: 'alerted' }]),
    });
    expect(narrow.body.messages.map((m: { id: number }) => m.id)).toContain(id);
  });

  it('flags by the words at the time of sending: a word added later does not flag older messages', async () => {
    const before = await sendToChannel(t, 'othello', 'Denmark', 'alerts', 'remember yorick');
    await t.as('hamlet').post('/users/me/alert_words', { alert_words: ['yorick'] });
    const after = await sendToChannel(t, 'othello', 'Denmark', 'alerts', 'remember yorick');
    expect(await flagsOf('hamlet', before)).not.toContain('has_alert_word');
    expect(await flagsOf('hamlet', after)).toContain('has_alert_word');
  });
});

describe('has_alert_word after an edit', () => {
  it('is worked out again from the new content, as the real server does', async () => {
    const id = await sendToChannel(t, 'othello', 'Denmark', 'alerts', 'nothing yet');
    expect(await flagsOf('hamlet', id)).not.toContain('has_alert_word');
    expect((await t.as('othello').patch(`/messages/${id}`, { content: 'now the castle' })).status).toBe(200);
    expect(await flagsOf('hamlet', id)).toContain('has_alert_word');
    expect((await t.as('othello').patch(`/messages/${id}`, { content: 'gone again' })).status).toBe(200);
    expect(await flagsOf('hamlet', id)).not.toContain('has_alert_word');
  });
});
