// Hostile content must not hold the server: rendering is linear on the inputs that made the old
// markdown library superlinear, nesting that would exhaust the stack is refused with the real
// server's render error, and linkifier patterns run on a linear-time (RE2) engine.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { checkLinkifierPattern } from '../../src/domain/render/linkifiers.js';
import { ApiError } from '../../src/errors.js';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
  // A server that has answered before: what is timed is the content, not compiling the renderer.
  await t.as('hamlet').post('/messages', {
    type: 'stream',
    to: 'Denmark',
    topic: 'warm-up',
    content: '[a](b) **c** #**Denmark** @**King Hamlet** #123 > d',
  });
});
afterEach(async () => {
  await t.close();
});

const MAX_MESSAGE_LENGTH = 10_000;

async function timedSend(content: string) {
  const started = performance.now();
  const r = await t.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic: 'hostile', content });
  return { ...r, ms: performance.now() - started };
}

describe('rendering is bounded', () => {
  it('renders 9,990 characters of `[](` within a second', async () => {
    const content = '[]('.repeat(3330);
    expect(content.length).toBeLessThan(MAX_MESSAGE_LENGTH);
    const r = await timedSend(content);
    expect(r.status).toBe(200);
    expect(r.ms).toBeLessThan(1000);
  });

  it('renders 9,990 characters of `![](` within a second', async () => {
    const r = await timedSend('![]('.repeat(2497));
    expect(r.status).toBe(200);
    expect(r.ms).toBeLessThan(1000);
  });

  it("refuses 9,990 nested quotes with the real server's render error, not a 500", async () => {
    const r = await timedSend('>'.repeat(9990));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: 'Unable to render message', code: 'BAD_REQUEST' });
    expect(r.ms).toBeLessThan(1000);
    // Nothing was stored, and the server still answers.
    const after = await t.as('hamlet').get('/messages', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: 'topic', operand: 'hostile' }],
    });
    expect(after.body.messages).toEqual([]);
  });

  it('refuses a preview of such content the same way', async () => {
    const r = await t.as('hamlet').post('/messages/render', { content: '>'.repeat(9990) });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('Unable to render message');
  });
});

describe('linkifiers run on a linear-time engine', () => {
  it('matches a nested-quantifier pattern against 28 `a` within a second', async () => {
    const store = t.server.world.store;
    store.linkifiers.insert({
      id: 99,
      pattern: '(?P<id>(a+)+)Z',
      url_template: 'https://example.com/{id}',
      example_input: null,
      reverse_template: null,
      alternative_url_templates: [],
    });
    const r = await timedSend('a'.repeat(28));
    expect(r.status).toBe(200);
    expect(r.ms).toBeLessThan(1000);
    const linked = await timedSend('aaaZ and more');
    expect(linked.status).toBe(200);
    const msg = await t.as('hamlet').get(`/messages/${linked.body.id}`);
    expect(msg.body.message.content).toContain('<a href="https://example.com/aaa">aaaZ</a>');
  });

  it("refuses patterns RE2 cannot compile with the real server's error", () => {
    // RE2's (C++) wording, as the real server's linkifier validation reports it.
    for (const [pattern, detail] of [
      ['(?!x)y', 'invalid perl operator: (?!'],
      ['(a', 'missing ): (a'],
      ['(?P<n>a)\\1', 'invalid escape sequence: \\1'],
      ['ZUL-(?P<id>\\d????)', 'bad repetition operator: ????'],
      ['a\\', 'trailing \\'],
    ]) {
      let error: unknown;
      try {
        checkLinkifierPattern(pattern);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('BAD_REQUEST');
      expect((error as ApiError).message).toBe(`Bad regular expression: ${detail}`);
    }
    expect(checkLinkifierPattern('#(?P<id>[0-9]+)').namedGroups()).toEqual({ id: 1 });
  });
});

describe('a work budget per request: hostile content is answered (or refused) within a second, and others are answered meanwhile', () => {
  it('refuses 9,990 characters of `*a_` (superlinear emphasis) with the real render error, and a concurrent read is answered', async () => {
    const content = '*a_'.repeat(3330);
    expect(content.length).toBeLessThan(MAX_MESSAGE_LENGTH);
    const started = performance.now();
    const hostile = timedSend(content);
    const other = t
      .as('othello')
      .get('/users/me')
      .then((r) => ({ ...r, ms: performance.now() - started }));
    const [h, o] = await Promise.all([hostile, other]);
    expect(h.status).toBe(400);
    expect(h.body).toEqual({ result: 'error', msg: 'Unable to render message', code: 'BAD_REQUEST' });
    expect(h.ms).toBeLessThan(1000);
    expect(o.status).toBe(200);
    expect(o.ms).toBeLessThan(1000);
  });

  it('answers a narrow of 10,000 negated search terms within a second, and a concurrent read too', async () => {
    const narrow = Array.from({ length: 10_000 }, (_, i) => ({
      operator: 'search',
      operand: `word${i}`,
      negated: true,
    }));
    const started = performance.now();
    const hostile = t
      .as('hamlet')
      .post('/messages/flags/narrow', {
        anchor: 'newest',
        num_before: 1000,
        num_after: 0,
        narrow,
        op: 'add',
        flag: 'starred',
      })
      .then((r) => ({ ...r, ms: performance.now() - started }));
    const other = t
      .as('othello')
      .get('/users/me')
      .then((r) => ({ ...r, ms: performance.now() - started }));
    const [h, o] = await Promise.all([hostile, other]);
    expect(h.status).toBe(200);
    expect(h.body.processed_count).toBeGreaterThan(0);
    expect(h.ms).toBeLessThan(1000);
    expect(o.status).toBe(200);
    expect(o.ms).toBeLessThan(1000);
  });

  it('keeps the meaning of many search terms together: positive terms all required, a negated term excludes only messages with all its words', async () => {
    const send = (topic: string, content: string) =>
      t.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic, content });
    await send('terms', 'red apples and green pears');
    await send('terms', 'red apples solo');
    await send('terms', 'green pears solo');
    const contents = async (narrow: unknown[]) =>
      (
        await t.as('hamlet').get('/messages', {
          anchor: 'newest',
          num_before: 10,
          num_after: 0,
          apply_markdown: false,
          narrow: [{ operator: 'topic', operand: 'terms' }, ...narrow],
        })
      ).body.messages.map((m: any) => m.content);
    expect(
      await contents([
        { operator: 'search', operand: 'red' },
        { operator: 'search', operand: 'pears' },
      ]),
    ).toEqual(['red apples and green pears']);
    expect(await contents([{ operator: 'search', operand: 'red apples', negated: true }])).toEqual([
      'green pears solo',
    ]);
    expect(
      await contents([
        { operator: 'search', operand: 'red', negated: true },
        { operator: 'search', operand: 'solo', negated: true },
      ]),
    ).toEqual([]);
    expect(
      await contents([
        { operator: 'search', operand: 'green' },
        { operator: 'search', operand: 'solo', negated: true },
      ]),
    ).toEqual(['red apples and green pears']);
  });
});
