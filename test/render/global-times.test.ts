// The global time syntax, `<time:...>`, through HTTP at the levels where it changed: before 451 an
// unreadable time is an error span; from 451 it stays the text written; before 503 the server read
// times leniently (python-dateutil, then UNIX timestamps), from 503 only ISO 8601. The expected
// HTML is the real server's (zerver/tests/fixtures/markdown_test_cases.json, its API changelog).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { readMessage } from '../helpers/read-back.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
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

const NEWEST = 511;
const at = (level: number, who = 'hamlet') => t.as(who, { 'X-Mock-Feature-Level': String(level) });

/** Sends `content` to Denmark at `level`, and gives the message's rendered_content as read back. */
async function sentAt(level: number, content: string): Promise<string> {
  const r = await at(level).post('/messages', { type: 'stream', to: 'Denmark', topic: 'times', content });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (await readMessage(t, 'hamlet', r.body.id, { apply_markdown: true })).content;
}

const time = (datetime: string, written: string) => `<time datetime="${datetime}">${written}</time>`;
const errorSpan = (written: string) => `<span class="timestamp-error">Invalid time format: ${written}</span>`;

describe('valid times', () => {
  it('an ISO 8601 time with an offset is given in UTC at every level, the text as written', async () => {
    for (const level of [372, 450, 502, 503, NEWEST]) {
      expect(await sentAt(level, 'Meet at <time:2017-06-05T22:30:00+02:00>.'), `FL ${level}`).toBe(
        `<p>Meet at ${time('2017-06-05T20:30:00Z', '2017-06-05T22:30:00+02:00')}.</p>`,
      );
    }
  });

  it('a time without a zone is UTC; seconds and microseconds are written as Python writes them', async () => {
    for (const level of [502, NEWEST]) {
      expect(await sentAt(level, '<time:2017-06-05T22:30>')).toBe(
        `<p>${time('2017-06-05T22:30:00Z', '2017-06-05T22:30')}</p>`,
      );
      expect(await sentAt(level, '<time:2017-12-31>')).toBe(`<p>${time('2017-12-31T00:00:00Z', '2017-12-31')}</p>`);
      expect(await sentAt(level, '<time:2017-06-05 22:30:00.25Z>')).toBe(
        `<p>${time('2017-06-05T22:30:00.250000Z', '2017-06-05 22:30:00.25Z')}</p>`,
      );
    }
  });

  it('inside other Markdown it is a time; in a code span or block it is text', async () => {
    expect(await sentAt(NEWEST, '**<time:2017-12-31T10:00Z>**')).toBe(
      `<p><strong>${time('2017-12-31T10:00:00Z', '2017-12-31T10:00Z')}</strong></p>`,
    );
    expect(await sentAt(NEWEST, '`<time:2017-12-31>`')).toBe('<p><code>&lt;time:2017-12-31&gt;</code></p>');
    expect(await sentAt(502, '```\n<time:2017-12-31>\n```')).toBe(
      '<div class="codehilite"><pre><span></span><code>&lt;time:2017-12-31&gt;\n</code></pre></div>',
    );
  });
});

describe('lenient times before 503, ISO 8601 only from it', () => {
  const lenient: Array<[string, string]> = [
    ['Jun 5th 2017, 10:30PM', '2017-06-05T22:30:00Z'],
    ['31 Dec 2017', '2017-12-31T00:00:00Z'],
    ['31 Dec 2017 5:30 am IST', '2017-12-31T00:00:00Z'],
    ['1496701800', '2017-06-05T22:30:00Z'],
    ['Tue, 06 Jun 2017 10:30:00 -0700', '2017-06-06T17:30:00Z'],
    ['12/31/2017 11pm PST', '2018-01-01T07:00:00Z'],
  ];

  it.each(lenient)('<time:%s> is %s before 503, text from 503', async (written, datetime) => {
    for (const level of [450, 502])
      expect(await sentAt(level, `<time:${written}>`)).toBe(`<p>${time(datetime, written)}</p>`);
    for (const level of [503, NEWEST])
      expect(await sentAt(level, `<time:${written}>`)).toBe(`<p>&lt;time:${written}&gt;</p>`);
  });

  it("before 503 a time without a date is on the server's current day (the mock clock's, UTC)", async () => {
    await new ControlClient(t.base).clock.set(Date.UTC(2026, 2, 4, 12, 0));
    expect(await sentAt(502, 'at <time:10:30pm>')).toBe(`<p>at ${time('2026-03-04T22:30:00Z', '10:30pm')}</p>`);
    await new ControlClient(t.base).clock.set(Date.UTC(2026, 2, 5, 12, 0));
    expect(await sentAt(502, 'at <time:10:30pm>')).toBe(`<p>at ${time('2026-03-05T22:30:00Z', '10:30pm')}</p>`);
    expect(await sentAt(503, 'at <time:10:30pm>')).toBe('<p>at &lt;time:10:30pm&gt;</p>');
  });
});

describe('times the server cannot read', () => {
  it('are an error span before 451, with the text up to the first ">"', async () => {
    expect(await sentAt(450, '<time:**hello world**>')).toBe(`<p>${errorSpan('**hello world**')}</p>`);
    expect(await sentAt(450, '<time:<alert(1)>>')).toBe(`<p>${errorSpan('&lt;alert(1)')}&gt;</p>`);
  });

  it('stay the text written from 451, nothing in them rendered', async () => {
    for (const level of [451, 502, 503, NEWEST]) {
      expect(await sentAt(level, '<time:**hello world**>'), `FL ${level}`).toBe('<p>&lt;time:**hello world**&gt;</p>');
      expect(await sentAt(level, '<time:<alert(1)>>'), `FL ${level}`).toBe('<p>&lt;time:&lt;alert(1)&gt;&gt;</p>');
      expect(await sentAt(level, '<time:2017-13-01>'), `FL ${level}`).toBe('<p>&lt;time:2017-13-01&gt;</p>');
    }
  });
});

describe('where else the syntax renders', () => {
  it('POST /messages/render at each level', async () => {
    const render = async (level: number, content: string) =>
      (await at(level).post('/messages/render', { content })).body;
    expect(await render(450, '<time:nope>')).toEqual({
      result: 'success',
      msg: '',
      rendered: `<p>${errorSpan('nope')}</p>`,
    });
    expect((await render(502, '<time:31 Dec 2017>')).rendered).toBe(
      `<p>${time('2017-12-31T00:00:00Z', '31 Dec 2017')}</p>`,
    );
    expect((await render(NEWEST, '<time:31 Dec 2017>')).rendered).toBe('<p>&lt;time:31 Dec 2017&gt;</p>');
  });

  it('a message edited at a level renders at that level, and the update event carries it', async () => {
    const r = await at(NEWEST).post('/messages', { type: 'stream', to: 'Denmark', topic: 'times', content: 'soon' });
    const id = r.body.id;
    const queue = await registerQueue(t, 'othello', ['update_message']);
    const edit = async (level: number, content: string) => {
      const e = await at(level).patch(`/messages/${id}`, { content });
      expect(e.status, JSON.stringify(e.body)).toBe(200);
      return (await readMessage(t, 'hamlet', id, { apply_markdown: true })).content;
    };
    expect(await edit(502, 'at <time:1496701800>')).toBe(`<p>at ${time('2017-06-05T22:30:00Z', '1496701800')}</p>`);
    expect(await edit(NEWEST, 'at <time:1496701800>')).toBe('<p>at &lt;time:1496701800&gt;</p>');
    expect(await edit(450, 'at <time:1496701800x>')).toBe(`<p>at ${errorSpan('1496701800x')}</p>`);
    const updates = (await eventsOf(t, 'othello', queue)).filter((e) => e.type === 'update_message');
    expect(updates.map((e) => e.rendered_content)).toEqual([
      `<p>at ${time('2017-06-05T22:30:00Z', '1496701800')}</p>`,
      '<p>at &lt;time:1496701800&gt;</p>',
      `<p>at ${errorSpan('1496701800x')}</p>`,
    ]);
  });

  it('a message keeps the rendering of the level it was sent at when read at another', async () => {
    const r = await at(502).post('/messages', {
      type: 'stream',
      to: 'Denmark',
      topic: 'times',
      content: '<time:31 Dec 2017>',
    });
    const read = await at(NEWEST).get(`/messages/${r.body.id}`, { apply_markdown: true });
    expect(read.body.message.content).toBe(`<p>${time('2017-12-31T00:00:00Z', '31 Dec 2017')}</p>`);
  });

  it("a channel's description at the level of the request", async () => {
    const stream = t.server.world.store.streams.by('name', 'denmark')!;
    const set = async (level: number) => {
      const e = await at(level, 'iago').patch(`/streams/${stream.stream_id}`, {
        description: 'Standup <time:9am UTC>',
      });
      expect(e.status, JSON.stringify(e.body)).toBe(200);
      return t.server.world.store.streams.get(stream.stream_id)!.rendered_description;
    };
    await new ControlClient(t.base).clock.set(Date.UTC(2026, 0, 15, 3, 0));
    expect(await set(502)).toBe(`<p>Standup ${time('2026-01-15T09:00:00Z', '9am UTC')}</p>`);
    expect(await set(NEWEST)).toBe('<p>Standup &lt;time:9am UTC&gt;</p>');
  });
});

describe('before the syntax (FL 8)', () => {
  it('is text, and no link', async () => {
    expect(await sentAt(7, '<time:2017-06-05T22:30:00Z> and <time:**soon**>')).toBe(
      '<p>&lt;time:2017-06-05T22:30:00Z&gt; and &lt;time:**soon**&gt;</p>',
    );
    expect(await sentAt(8, '<time:2017-06-05T22:30:00Z>')).toBe(
      `<p>${time('2017-06-05T22:30:00Z', '2017-06-05T22:30:00Z')}</p>`,
    );
  });
});
