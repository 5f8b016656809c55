// Outgoing webhook bots through HTTP, against a listener of the test's own on 127.0.0.1: who is
// called (mentions, groups while subscribed, direct messages; never for bots' messages, silent
// mentions, mentions in code or deactivated bots; once per message), the exact payloads of both
// formats, how answers are posted, failures with the owner's notice in the real wording, the
// retries of timeouts and connection errors, the journal, and the control API's settle call.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { sendMessage, sendToChannel } from '../helpers/messages.js';
import { ControlClient } from '../../src/control/client.js';

interface Hit {
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Answer = (hit: Hit, req: http.IncomingMessage, res: http.ServerResponse) => void;

let t: TestServer;
let control: ControlClient;
let listener: http.Server;
let hookUrl: string;
let hits: Hit[] = [];
let answer: Answer;
const json =
  (status: number, body: unknown): Answer =>
  (_h, _q, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

beforeAll(async () => {
  // Long enough for a loaded machine; the timeout test starts a server of its own with a short one.
  t = await startTestServer({ outgoingTimeoutMs: 5000, allowOutgoing: ['bots.allowed.example'] });
  control = new ControlClient(t.base);
  listener = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit = { headers: req.headers, body: Buffer.concat(chunks).toString() };
      hits.push(hit);
      answer(hit, req, res);
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/hook`;
});
beforeEach(() => {
  t.server.world.reset();
  hits = [];
  answer = json(200, { content: 'pong' });
});
afterAll(async () => {
  listener.closeAllConnections();
  await new Promise((resolve) => listener.close(resolve));
  await t.close();
});

const createBot = async (params: Record<string, unknown> = {}, owner = 'hamlet') => {
  const r = await t.as(owner).post('/bots', {
    full_name: 'Pinger',
    short_name: 'pinger',
    bot_type: 3,
    payload_url: JSON.stringify(hookUrl),
    ...params,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const bot = t.server.world.store.users.get(r.body.user_id)!;
  return { id: bot.user_id, email: bot.email, token: bot.bot_service!.token };
};
const settle = async () => expect(await control.outgoing.settle(5000)).toEqual({ settled: true, pending: 0 });

/** The newest messages `who` sees in a narrow, oldest first, with their Markdown. */
async function latest(who: string, narrow: unknown[], num = 10): Promise<any[]> {
  const r = await t
    .as(who)
    .get('/messages', { anchor: 'newest', num_before: num, num_after: 0, narrow, apply_markdown: false });
  expect(r.status).toBe(200);
  return r.body.messages;
}
const topicNarrow = (channel: string, topic: string) => [
  { operator: 'channel', operand: channel },
  { operator: 'topic', operand: topic },
];

describe('Zulip format (interface 1)', () => {
  it('posts exactly the real payload for a mention and posts the answer in the same topic', async () => {
    const bot = await createBot();
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'hook', 'hi @**Pinger** how are you?');
    await settle();
    expect(hits).toHaveLength(1);
    const { headers, body } = hits[0];
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe(`ZulipOutgoingWebhook/${t.server.server.version}`);
    const payload = JSON.parse(body);
    expect(Object.keys(payload).sort()).toEqual(['bot_email', 'bot_full_name', 'data', 'message', 'token', 'trigger']);
    expect(payload).toMatchObject({
      data: 'hi @**Pinger** how are you?',
      token: bot.token,
      bot_email: bot.email,
      bot_full_name: 'Pinger',
      trigger: 'mention',
    });
    const hamlet = t.user('hamlet');
    expect(payload.message).toMatchObject({
      id,
      type: 'stream',
      stream_id: 1,
      display_recipient: 'Denmark',
      subject: 'hook',
      sender_id: hamlet.user_id,
      sender_email: hamlet.email,
      content: 'hi @**Pinger** how are you?',
      content_type: 'text/x-markdown',
      recipient_id: 1,
      client: expect.any(String),
      rendered_content: `<p>hi <span class="user-mention" data-user-id="${bot.id}">@Pinger</span> how are you?</p>`,
      avatar_url: expect.any(String),
      reactions: [],
      submessages: [],
      is_me_message: false,
    });
    expect(payload.message).not.toHaveProperty('flags');
    const [, reply] = await latest('hamlet', topicNarrow('Denmark', 'hook'), 2);
    expect(reply).toMatchObject({ sender_id: bot.id, content: 'pong', client: 'OutgoingWebhookResponse' });
  });

  it('is called for a direct message and a group direct message that include the bot, with direct_message (private_message before FL 201)', async () => {
    const bot = await createBot();
    const hamlet = t.user('hamlet');
    const dm = await sendMessage(t, 'hamlet', { type: 'direct', to: [bot.id], content: 'ping' });
    await settle();
    const one = JSON.parse(hits[0].body);
    expect(one).toMatchObject({ trigger: 'direct_message', data: 'ping' });
    // A one-to-one message shows the sender's conversation, as the bot's clients see it.
    expect(one.message).toMatchObject({ id: dm, type: 'private', recipient_id: 100000 + hamlet.user_id });
    expect((await latest('hamlet', [{ operator: 'dm', operand: [bot.id] }], 1))[0]).toMatchObject({
      sender_id: bot.id,
      content: 'pong',
    });

    const othello = t.user('othello');
    await sendMessage(t, 'hamlet', { type: 'direct', to: [bot.id, othello.user_id], content: 'all of us' });
    await settle();
    expect(JSON.parse(hits[1].body).trigger).toBe('direct_message');
    const group = await latest('othello', [{ operator: 'dm', operand: [bot.id, hamlet.user_id] }], 1);
    expect(group[0]).toMatchObject({ sender_id: bot.id, content: 'pong' });

    await control.setFeatureLevel(200);
    await sendMessage(t, 'hamlet', { type: 'direct', to: [bot.id], content: 'old' });
    await settle();
    await control.setFeatureLevel(null);
    expect(JSON.parse(hits[2].body).trigger).toBe('private_message');
  });

  it('is called for a group the bot is in only while the bot is subscribed, and once per message', async () => {
    const bot = await createBot();
    const group = await t
      .as('iago')
      .post('/user_groups/create', { name: 'helpers', description: 'bots', members: [bot.id] });
    expect(group.status).toBe(200);
    await sendToChannel(t, 'hamlet', 'Denmark', 'g', 'calling @*helpers*');
    await settle();
    expect(hits).toHaveLength(0);
    const sub = await t
      .as('hamlet')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [bot.id] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    await sendToChannel(t, 'hamlet', 'Denmark', 'g', 'calling @*helpers* and @**Pinger** and @**Pinger** again');
    await settle();
    expect(hits).toHaveLength(1);
    expect(JSON.parse(hits[0].body).trigger).toBe('mention');
    // A direct message that also mentions the bot: one call, as a direct message.
    await sendMessage(t, 'hamlet', { type: 'direct', to: [bot.id], content: '@**Pinger** hello' });
    await settle();
    expect(hits.map((h) => JSON.parse(h.body).trigger)).toEqual(['mention', 'direct_message']);
  });

  it("is not called for a silent mention, a mention in code, a wildcard, a bot's message, a message that does not include it, or once deactivated", async () => {
    const bot = await createBot();
    await sendToChannel(t, 'hamlet', 'Denmark', 'n', 'silently @_**Pinger**');
    await sendToChannel(t, 'hamlet', 'Denmark', 'n', '`@**Pinger**` and\n```\n@**Pinger**\n```');
    await sendToChannel(t, 'hamlet', 'Denmark', 'n', 'everyone: @**all**');
    await sendMessage(t, 'hamlet', { type: 'direct', to: [t.user('othello').user_id], content: 'not for bots' });
    await sendToChannel(t, 'hamlet-bot', 'Denmark', 'n', 'a bot says @**Pinger**');
    await sendMessage(t, 'hamlet-bot', { type: 'direct', to: [bot.id], content: 'bot to bot' });
    // The mock has no DELETE /bots/{bot_id} yet: the bot is deactivated in the state.
    const store = t.server.world.store;
    store.users.update(store.users.get(bot.id)!, { is_active: false });
    await sendToChannel(t, 'hamlet', 'Denmark', 'n', 'gone @**Pinger**');
    await settle();
    expect(hits).toHaveLength(0);
  });

  it('posts response_string, content as Python shows it, and nothing for response_not_required, "", {} or blank content', async () => {
    const bot = await createBot();
    const cases: Array<[unknown, string | null]> = [
      [{ response_not_required: true, content: 'no' }, null],
      ['""', null],
      [{}, null],
      [{ content: '   ' }, null],
      [{ response_string: 'old style' }, 'old style'],
      [{ content: 5 }, '5'],
      [{ content: null }, 'None'],
      [{ content: 'with widget', widget_content: '{"widget_type": "zform", "extra_data": null}' }, 'with widget'],
    ];
    for (const [body, posted] of cases) {
      answer = json(200, body);
      const before = t.server.world.store.messages.all().length;
      await sendToChannel(t, 'hamlet', 'Denmark', 'answers', `@**Pinger** ${JSON.stringify(body)}`);
      await settle();
      const added = t.server.world.store.messages.all().slice(before + 1);
      expect(
        added.map((m) => m.content),
        JSON.stringify(body),
      ).toEqual(posted === null ? [] : [posted]);
      if (posted !== null) expect(added[0].sender_id).toBe(bot.id);
    }
  });

  it('fails at once on an answer that is not JSON, or not an object, and tells the owner with the answer quoted', async () => {
    const bot = await createBot();
    answer = json(200, "it's not json");
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'bad', '@**Pinger** go');
    await settle();
    expect(hits).toHaveLength(1);
    const [, failure] = await latest('hamlet', topicNarrow('Denmark', 'bad'), 2);
    expect(failure).toMatchObject({ sender_id: bot.id, content: 'Failure! Invalid JSON in response' });
    const [notice] = await latest('hamlet', [{ operator: 'dm', operand: [bot.id] }], 1);
    expect(notice.sender_id).toBe(bot.id);
    expect(notice.content).toBe(
      `[A message](${t.base}/#narrow/channel/1-Denmark/topic/bad/near/${id}) to your bot @_**Pinger** triggered an outgoing webhook.\n` +
        'The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> Invalid JSON in response\n' +
        'The response contains the following payload:\n```\n"it\'s not json"\n```',
    );

    answer = json(200, '[1, 2]');
    await sendToChannel(t, 'hamlet', 'Denmark', 'bad', '@**Pinger** again');
    await settle();
    expect((await latest('hamlet', topicNarrow('Denmark', 'bad'), 1))[0].content).toBe(
      'Failure! Invalid response format',
    );
  });

  it('answers a 500 with "Third party responded with 500", tried once, the owner told the status and the payload', async () => {
    const bot = await createBot();
    answer = json(500, { error: 'boom' });
    const othello = t.user('othello');
    const id = await sendMessage(t, 'othello', { type: 'direct', to: [bot.id], content: 'ping' });
    await settle();
    expect(hits).toHaveLength(1);
    const [failure] = await latest('othello', [{ operator: 'dm', operand: [bot.id] }], 1);
    expect(failure).toMatchObject({ sender_id: bot.id, content: 'Failure! Third party responded with 500' });
    const [notice] = await latest('hamlet', [{ operator: 'dm', operand: [bot.id] }], 1);
    const slug = [bot.id, othello.user_id].sort((a, b) => a - b).join(',');
    expect(notice.content).toBe(
      `[A message](${t.base}/#narrow/dm/${slug}/near/${id}) to your bot @_**Pinger** triggered an outgoing webhook.\n` +
        'The webhook got a response with status code *500*.\n' +
        'The response contains the following payload:\n```\nb\'{"error":"boom"}\'\n```',
    );
  });
});

describe('tries again only after timeouts and connection errors', () => {
  const expectUnavailable = async (botId: number, id: number, failure: string) => {
    expect((await latest('hamlet', topicNarrow('Denmark', 'down'), 1))[0]).toMatchObject({
      sender_id: botId,
      content: 'Failure! Bot is unavailable',
    });
    const [notice] = await latest('hamlet', [{ operator: 'dm', operand: [botId] }], 1);
    expect(notice.content).toBe(
      `[A message](${t.base}/#narrow/channel/1-Denmark/topic/down/near/${id}) to your bot @_**Pinger** triggered an outgoing webhook.\n${failure}`,
    );
  };

  it('a dropped connection: four tries, then "Bot is unavailable" and the owner\'s notice; every try in the journal, token redacted', async () => {
    const bot = await createBot();
    answer = (_h, req) => req.socket.destroy();
    await control.journal.clear();
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'down', '@**Pinger** there?');
    await settle();
    expect(hits).toHaveLength(4);
    await expectUnavailable(bot.id, id, 'A connection error occurred. Is my bot server down?');
    const { entries } = await control.journal.list({ operation: 'outgoing-webhook' });
    expect(entries.map((e) => [e.params.attempt, (e.response as any).outcome, e.code, e.status])).toEqual([
      [4, 'failure: maximum retries exceeded', 'CONNECTION_ERROR', 0],
      [3, 'retry', 'CONNECTION_ERROR', 0],
      [2, 'retry', 'CONNECTION_ERROR', 0],
      [1, 'retry', 'CONNECTION_ERROR', 0],
    ]);
    expect(entries[0]).toMatchObject({
      method: 'POST',
      path: hookUrl,
      user: bot.email,
      params: { trigger: 'mention', message_id: id },
    });
    expect((entries[0].params.request as any).token).toBe('[redacted]');
    expect(JSON.stringify(entries)).not.toContain(bot.token);
  });

  it('a URL where nothing listens: four tries, then the same', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const bot = await createBot({ payload_url: JSON.stringify(`http://127.0.0.1:${port}/`) });
    await control.journal.clear();
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'down', '@**Pinger** there?');
    await settle();
    expect((await control.journal.list({ operation: 'outgoing-webhook' })).count).toBe(4);
    await expectUnavailable(bot.id, id, 'A connection error occurred. Is my bot server down?');
  });

  it('no answer within the timeout (a server option, 10 s by default): four tries, then "Request timed out after ..."', async () => {
    const quick = await startTestServer({ outgoingTimeoutMs: 150 });
    try {
      answer = () => {}; // never answers
      const r = await quick.as('hamlet').post('/bots', {
        full_name: 'Pinger',
        short_name: 'pinger',
        bot_type: 3,
        payload_url: JSON.stringify(hookUrl),
      });
      const id = await sendToChannel(quick, 'hamlet', 'Denmark', 'down', '@**Pinger** slow?');
      expect(await new ControlClient(quick.base).outgoing.settle(5000)).toEqual({ settled: true, pending: 0 });
      expect(hits).toHaveLength(4);
      const messages = quick.server.world.store.messages.all().slice(-2);
      expect(messages.map((m) => [m.sender_id, m.content])).toEqual([
        [r.body.user_id, 'Failure! Bot is unavailable'],
        [
          r.body.user_id,
          `[A message](${quick.base}/#narrow/channel/1-Denmark/topic/down/near/${id}) to your bot @_**Pinger** triggered an outgoing webhook.\nRequest timed out after 0.15 seconds.`,
        ],
      ]);
      expect(messages[1].recipient_ids).toEqual([quick.user('hamlet').user_id, r.body.user_id].sort((a, b) => a - b));
    } finally {
      await quick.close();
    }
  });
});

describe('Slack format (interface 2)', () => {
  it('posts the Slack form for a mention and posts `text` back', async () => {
    const bot = await createBot({ interface_type: 2 });
    answer = json(200, { text: 'slack says hi' });
    const hamlet = t.user('hamlet');
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'slack', '@**Pinger** hello');
    await settle();
    expect(hits[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    const ts = String(t.server.world.store.messages.get(id)!.timestamp);
    expect([...new URLSearchParams(hits[0].body)]).toEqual([
      ['token', bot.token],
      ['team_id', `T${t.server.world.store.realm.id}`],
      ['team_domain', new URL(t.base).host],
      ['channel_id', 'C1'],
      ['channel_name', 'Denmark'],
      ['thread_ts', ts],
      ['timestamp', ts],
      ['user_id', `U${hamlet.user_id}`],
      ['user_name', hamlet.full_name],
      ['text', '@**Pinger** hello'],
      ['trigger_word', 'mention'],
      ['service_id', String(bot.id)],
    ]);
    expect((await latest('hamlet', topicNarrow('Denmark', 'slack'), 1))[0]).toMatchObject({
      sender_id: bot.id,
      content: 'slack says hi',
    });
  });

  it('takes no direct messages: no call, a failure in the conversation, no notice to the owner', async () => {
    const bot = await createBot({ interface_type: 2 });
    await sendMessage(t, 'othello', { type: 'direct', to: [bot.id], content: 'hello' });
    await settle();
    expect(hits).toHaveLength(0);
    expect((await latest('othello', [{ operator: 'dm', operand: [bot.id] }], 1))[0]).toMatchObject({
      sender_id: bot.id,
      content: "Failure! Slack outgoing webhooks don't support direct messages.",
    });
    expect(await latest('hamlet', [{ operator: 'dm', operand: [bot.id] }])).toEqual([]);
  });
});

describe('safety', () => {
  it('refuses a payload_url that is not on loopback unless the host was allowed', async () => {
    expectError(
      await t.as('hamlet').post('/bots', {
        full_name: 'Far',
        short_name: 'far',
        bot_type: 3,
        payload_url: JSON.stringify('https://bots.example.com/hook'),
      }),
      400,
      'BAD_REQUEST',
      'payload_url: bots.example.com is not a loopback address; the mock calls only 127.0.0.1, ::1 and localhost unless started with --allow-outgoing bots.example.com',
    );
    const bot = await createBot({ payload_url: JSON.stringify('https://bots.allowed.example/hook') });
    expectError(
      await t.as('hamlet').patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify('http://10.0.0.1/') }),
      400,
      'BAD_REQUEST',
      'service_payload_url: 10.0.0.1 is not a loopback address; the mock calls only 127.0.0.1, ::1 and localhost unless started with --allow-outgoing 10.0.0.1',
    );
    expect(
      (await t.as('hamlet').patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify('http://localhost:1/') }))
        .status,
    ).toBe(200);
  });

  it('does not call a URL elsewhere that reached the state another way: answered as a disallowed network (407)', async () => {
    const bot = await createBot();
    const store = t.server.world.store;
    const row = store.users.get(bot.id)!;
    store.users.update(row, { bot_service: { ...row.bot_service!, base_url: 'http://bots.example.com/hook' } });
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'far', '@**Pinger** hello');
    await settle();
    expect((await latest('hamlet', topicNarrow('Denmark', 'far'), 1))[0].content).toBe(
      'Failure! Third party responded with 407',
    );
    expect((await latest('hamlet', [{ operator: 'dm', operand: [bot.id] }], 1))[0].content).toBe(
      `[A message](${t.base}/#narrow/channel/1-Denmark/topic/far/near/${id}) to your bot @_**Pinger** triggered an outgoing webhook.\n` +
        'The URL configured for the webhook is for a private or disallowed network.',
    );
  });

  it("fails at once on a URL the HTTP library cannot use (none given), with the exception in the owner's notice", async () => {
    const r = await t.as('hamlet').post('/bots', { full_name: 'Nowhere', short_name: 'nowhere', bot_type: 3 });
    const id = await sendToChannel(t, 'hamlet', 'Denmark', 'none', '@**Nowhere** hello');
    await settle();
    expect((await latest('hamlet', topicNarrow('Denmark', 'none'), 1))[0].content).toBe(
      'Failure! An exception of type *MissingSchema* occurred for message `@**Nowhere** hello`! See the Zulip server logs for more information.',
    );
    expect((await latest('hamlet', [{ operator: 'dm', operand: [r.body.user_id] }], 1))[0].content).toBe(
      `[A message](${t.base}/#narrow/channel/1-Denmark/topic/none/near/${id}) to your bot @_**Nowhere** triggered an outgoing webhook.\n` +
        'When trying to send a request to the webhook service, an exception of type MissingSchema occurred:\n```\n' +
        "Invalid URL '': No scheme supplied. Perhaps you meant https://?\n```",
    );
  });

  it('a message past the queue bound (1,000 waiting) calls nobody, and the journal says so with its ID and trigger', async () => {
    const bot = await createBot();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Every call waits, so that the queue fills: 8 in flight (the world's bound), 1,000 queued.
    // (Sent 100 at a time, well within the server's 5 s deadline of a try: a try that times
    // out is tried again, and a retry finding the queue full is dropped as well.)
    answer = (_h, _q, res) => {
      void released.then(() => json(200, { response_not_required: true })(_h, _q, res));
    };
    const ids: number[] = [];
    for (let i = 0; i < 1010; i += 100) {
      const batch = Array.from({ length: Math.min(100, 1010 - i) }, (_, j) =>
        sendToChannel(t, 'hamlet', 'Denmark', 'flood', `@**Pinger** ${i + j}`),
      );
      ids.push(...(await Promise.all(batch)));
    }
    const dropped = await sendToChannel(t, 'hamlet', 'Denmark', 'flood', '@**Pinger** one too many');
    const { entries } = await control.journal.list({ operation: 'outgoing-webhook' });
    const mine = entries.filter((e) => e.params.message_id === dropped);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      path: 'dropped',
      user: bot.email,
      status: 0,
      code: 'QUEUE_FULL',
      params: { trigger: 'mention', message_id: dropped, attempt: 1 },
      response: { outcome: 'dropped: the queue is full', code: 'QUEUE_FULL' },
    });
    expect(Object.keys(mine[0].params)).toEqual(['trigger', 'message_id', 'attempt']);
    release();
    expect(await control.outgoing.settle(60_000)).toEqual({ settled: true, pending: 0 });
    // The messages sent first were called (8 in flight, 1,000 queued, in the order sent); the rest never.
    const called = [...new Set(hits.map((h) => JSON.parse(h.body).message.id as number))].sort((a, b) => a - b);
    expect(called).toEqual(ids.sort((a, b) => a - b).slice(0, 1008));
  }, 60_000);

  it('the sender never waits for the bot, and settle reports what is still pending', async () => {
    await createBot();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    answer = (_h, _q, res) => {
      void released.then(() => json(200, { content: 'late' })(_h, _q, res));
    };
    const t0 = performance.now();
    await sendToChannel(t, 'hamlet', 'Denmark', 'wait', '@**Pinger** take your time');
    expect(performance.now() - t0).toBeLessThan(100);
    expect(await control.outgoing.settle(20)).toEqual({ settled: false, pending: 1 });
    release();
    await settle();
    expect((await latest('hamlet', topicNarrow('Denmark', 'wait'), 1))[0].content).toBe('late');
  });
});
