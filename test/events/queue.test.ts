// GET /events and DELETE /events: long polling, acknowledgement, heartbeats, the queue's
// lifetime, and which queues a published event reaches. Events are published straight into the
// world's hub here, as the domain actions do; the actions' own events are tested in their areas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { registerQueue } from '../helpers/events.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ longpollTimeoutSeconds: 1 });
});
afterAll(async () => {
  await t.close();
});

const hub = () => t.server.world.events;

const poll = (who: string, queueId: string, params: Record<string, unknown> = {}) =>
  t.as(who).get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true, ...params });

const badQueue = (queueId: string) => ({
  result: 'error',
  code: 'BAD_EVENT_QUEUE_ID',
  msg: `Bad event queue ID: ${queueId}`,
  queue_id: queueId,
});

function messageEvent(over: { subject?: string; stream?: string; id?: number } = {}) {
  const stream = t.server.world.store.streams.by('name', (over.stream ?? 'Denmark').toLowerCase())!;
  return {
    type: 'message',
    flags: [],
    message: {
      id: over.id ?? 1000,
      type: 'stream',
      stream_id: stream.stream_id,
      display_recipient: stream.name,
      subject: over.subject ?? 'castle',
      sender_id: t.user('iago').user_id,
      sender_email: 'iago@zulip.com',
      content: 'hi',
      rendered_content: '<p>hi</p>',
    },
  };
}

describe('GET /events', () => {
  it('returns the waiting events at once, with per-queue increasing IDs, and drops acknowledged ones', async () => {
    const q = await registerQueue(t, 'hamlet');
    const uid = t.user('hamlet').user_id;
    for (const n of [1, 2, 3]) hub().publish([uid], { type: 'custom_test', n });
    const all = await poll('hamlet', q, { dont_block: false });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      result: 'success',
      msg: '',
      queue_id: q,
      events: [
        { type: 'custom_test', n: 1, id: 0 },
        { type: 'custom_test', n: 2, id: 1 },
        { type: 'custom_test', n: 3, id: 2 },
      ],
    });
    const rest = await poll('hamlet', q, { last_event_id: 1 });
    expect(rest.body.events).toEqual([{ type: 'custom_test', n: 3, id: 2 }]);
    const none = await poll('hamlet', q, { last_event_id: 2 });
    expect(none.body.events).toEqual([]);
    // Pruned events do not come back even when asked for from the start.
    const again = await poll('hamlet', q, { last_event_id: -1 });
    expect(again.body.events).toEqual([]);
  });

  it('answers at once with no events when dont_block is true', async () => {
    const q = await registerQueue(t, 'hamlet');
    const started = Date.now();
    const r = await poll('hamlet', q, { dont_block: true });
    expect(r.body).toEqual({ result: 'success', msg: '', events: [], queue_id: q });
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('sends a heartbeat event when nothing happens within the long-poll timeout', async () => {
    const q = await registerQueue(t, 'hamlet');
    const started = Date.now();
    const r = await poll('hamlet', q, { dont_block: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(r.body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });

  it('wakes a waiting long-poll as soon as an event arrives', async () => {
    const q = await registerQueue(t, 'hamlet');
    const started = Date.now();
    const pending = poll('hamlet', q, { dont_block: false });
    setTimeout(() => hub().publish([t.user('hamlet').user_id], { type: 'custom_test' }), 100);
    const r = await pending;
    expect(Date.now() - started).toBeLessThan(900);
    expect(r.body.events).toEqual([{ type: 'custom_test', id: 0 }]);
  });

  it('gives BAD_EVENT_QUEUE_ID with queue_id for an unknown queue', async () => {
    const r = await poll('hamlet', 'no-such-queue');
    expect(r.status).toBe(400);
    expect(r.body).toEqual(badQueue('no-such-queue'));
  });

  it("treats another user's queue as unknown, as the real server does", async () => {
    const q = await registerQueue(t, 'othello');
    const r = await poll('hamlet', q);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(badQueue(q));
    expect((await poll('othello', q)).status).toBe(200);
  });

  it('requires queue_id', async () => {
    const r = await t.as('hamlet').get('/events', { last_event_id: -1 });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'queue_id' });
  });
});

describe('DELETE /events', () => {
  it('deletes the queue; polling it or deleting it again gives BAD_EVENT_QUEUE_ID', async () => {
    const q = await registerQueue(t, 'hamlet');
    const del = await t.as('hamlet').delete('/events', { queue_id: q });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ result: 'success', msg: '' });
    expect(
      hub()
        .queuesOf(t.user('hamlet').user_id)
        .map((x) => x.id),
    ).not.toContain(q);
    expect((await poll('hamlet', q)).body).toEqual(badQueue(q));
    const again = await t.as('hamlet').delete('/events', { queue_id: q });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(badQueue(q));
  });

  it("does not delete another user's queue", async () => {
    const q = await registerQueue(t, 'othello');
    const r = await t.as('hamlet').delete('/events', { queue_id: q });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(badQueue(q));
    expect((await poll('othello', q)).status).toBe(200);
  });

  it('ends a long-poll waiting on the deleted queue with BAD_EVENT_QUEUE_ID', async () => {
    const q = await registerQueue(t, 'hamlet');
    const pending = poll('hamlet', q, { dont_block: false });
    await new Promise((r) => setTimeout(r, 100));
    await t.as('hamlet').delete('/events', { queue_id: q });
    const r = await pending;
    expect(r.status).toBe(400);
    expect(r.body).toEqual(badQueue(q));
  });
});

describe('idle queues', () => {
  it('expire after idle_queue_timeout seconds of mock time without a poll', async () => {
    const q = await registerQueue(t, 'hamlet', undefined, { idle_queue_timeout: 60 });
    t.server.clock.advance(59_000);
    expect((await poll('hamlet', q)).status).toBe(200);
    t.server.clock.advance(59_000); // the poll above counted as activity
    expect((await poll('hamlet', q)).status).toBe(200);
    t.server.clock.advance(61_000);
    // Collected by the tick that ran when the clock moved, before anyone polls.
    expect(
      hub()
        .queuesOf(t.user('hamlet').user_id)
        .map((x) => x.id),
    ).not.toContain(q);
    const r = await poll('hamlet', q);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(badQueue(q));
  });

  it('expire after 10 minutes by default', async () => {
    const kept = await registerQueue(t, 'hamlet');
    t.server.clock.advance(599_000);
    expect((await poll('hamlet', kept)).status).toBe(200);
    const q = await registerQueue(t, 'hamlet');
    t.server.clock.advance(600_000);
    expect((await poll('hamlet', q)).body).toEqual(badQueue(q));
  });

  it('do not expire while a long-poll is waiting on them', async () => {
    const q = await registerQueue(t, 'hamlet', undefined, { idle_queue_timeout: 10 });
    const pending = poll('hamlet', q, { dont_block: false });
    await new Promise((r) => setTimeout(r, 100));
    t.server.clock.advance(20_000);
    const r = await pending;
    expect(r.body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });
});

describe('which queues an event reaches', () => {
  it('only queues of the given users that asked for its type (heartbeats aside)', async () => {
    const hamlet = t.user('hamlet').user_id;
    const messages = await registerQueue(t, 'hamlet', undefined, { event_types: ['message'] });
    const subs = await registerQueue(t, 'hamlet', undefined, { event_types: ['subscription'] });
    const all = await registerQueue(t, 'hamlet');
    const othello = await registerQueue(t, 'othello');
    hub().publish([hamlet], { type: 'subscription', op: 'update', stream_id: 1, property: 'pin_to_top', value: true });
    expect((await poll('hamlet', messages)).body.events).toEqual([]);
    expect((await poll('hamlet', subs)).body.events).toEqual([
      { type: 'subscription', op: 'update', stream_id: 1, property: 'pin_to_top', value: true, id: 0 },
    ]);
    expect((await poll('hamlet', all)).body.events).toHaveLength(1);
    expect((await poll('othello', othello)).body.events).toEqual([]);
  });

  it('counts IDs per queue', async () => {
    const hamlet = t.user('hamlet').user_id;
    const a = await registerQueue(t, 'hamlet');
    hub().publish([hamlet], { type: 'custom_test' });
    const b = await registerQueue(t, 'hamlet');
    hub().publish([hamlet], { type: 'custom_test' });
    expect((await poll('hamlet', a)).body.events.map((e: any) => e.id)).toEqual([0, 1]);
    expect((await poll('hamlet', b)).body.events.map((e: any) => e.id)).toEqual([0]);
  });

  it('takes the per-queue variant of an event, and skips a queue for which it is null', async () => {
    const hamlet = t.user('hamlet').user_id;
    const sender = await registerQueue(t, 'hamlet');
    const other = await registerQueue(t, 'hamlet');
    const skipped = await registerQueue(t, 'hamlet');
    const event = messageEvent();
    hub().publish([hamlet], event, (queueId) => {
      if (queueId === sender) return { ...event, local_message_id: 'abc' };
      return queueId === skipped ? null : event;
    });
    const mine = (await poll('hamlet', sender)).body.events;
    expect(mine).toHaveLength(1);
    expect(mine[0].local_message_id).toBe('abc');
    const theirs = (await poll('hamlet', other)).body.events;
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).not.toHaveProperty('local_message_id');
    expect((await poll('hamlet', skipped)).body.events).toEqual([]);
  });

  it('shows the empty topic by its display name to queues without empty_topic_name', async () => {
    const hamlet = t.user('hamlet').user_id;
    const plain = await registerQueue(t, 'hamlet');
    const capable = await registerQueue(t, 'hamlet', undefined, { client_capabilities: { empty_topic_name: true } });
    hub().publish([hamlet], messageEvent({ subject: '' }));
    hub().publish([hamlet], {
      type: 'user_topic',
      stream_id: 1,
      topic_name: '',
      last_updated: 1,
      visibility_policy: 1,
    });
    const [pm, pu] = (await poll('hamlet', plain)).body.events;
    expect(pm.message.subject).toBe('general chat');
    expect(pu.topic_name).toBe('general chat');
    const [cm, cu] = (await poll('hamlet', capable)).body.events;
    expect(cm.message.subject).toBe('');
    expect(cu.topic_name).toBe('');
  });

  it('gives message content as Markdown or HTML as apply_markdown asked', async () => {
    const hamlet = t.user('hamlet').user_id;
    const raw = await registerQueue(t, 'hamlet');
    const html = await registerQueue(t, 'hamlet', undefined, { apply_markdown: true });
    hub().publish([hamlet], messageEvent());
    const r = (await poll('hamlet', raw)).body.events[0].message;
    expect(r).toMatchObject({ content: 'hi', content_type: 'text/x-markdown' });
    expect(r).not.toHaveProperty('rendered_content');
    expect((await poll('hamlet', html)).body.events[0].message).toMatchObject({
      content: '<p>hi</p>',
      content_type: 'text/html',
    });
  });

  it('gives queues of one kind one copy of a message, each kind its own, and leaves the published one as it was', async () => {
    const hamlet = t.user('hamlet').user_id;
    const html = [
      await registerQueue(t, 'hamlet', undefined, { apply_markdown: true }),
      await registerQueue(t, 'hamlet', undefined, { apply_markdown: true }),
    ];
    const raw = await registerQueue(t, 'hamlet');
    const capable = await registerQueue(t, 'hamlet', undefined, {
      apply_markdown: true,
      client_capabilities: { empty_topic_name: true },
    });
    const event = messageEvent({ subject: '' });
    // Each queue's own event (flags per queue), one message object for all of them, as send publishes.
    hub().publish([hamlet], event, () => ({ type: 'message', message: event.message, flags: ['read'] }));
    const held = (id: string) =>
      hub()
        .queuesOf(hamlet)
        .find((q) => q.id === id)!
        .contents()[0];
    expect(held(html[0]).message).toBe(held(html[1]).message);
    expect(held(raw).message).not.toBe(held(html[0]).message);
    expect(held(capable).message).not.toBe(held(html[0]).message);
    expect(event.message).toMatchObject({ content: 'hi', rendered_content: '<p>hi</p>', subject: '' });
    for (const q of html)
      expect((await poll('hamlet', q)).body.events[0]).toMatchObject({
        flags: ['read'],
        message: { content: '<p>hi</p>', content_type: 'text/html', subject: 'general chat' },
      });
    expect((await poll('hamlet', raw)).body.events[0].message).toMatchObject({
      content: 'hi',
      content_type: 'text/x-markdown',
      subject: 'general chat',
    });
    expect((await poll('hamlet', capable)).body.events[0].message).toMatchObject({ content: '<p>hi</p>', subject: '' });
  });

  it('passes only matching message events to a queue registered with a narrow', async () => {
    const hamlet = t.user('hamlet').user_id;
    const q = await registerQueue(t, 'hamlet', undefined, {
      narrow: [
        ['channel', 'denmark'],
        ['topic', 'Castle'],
      ],
    });
    hub().publish([hamlet], messageEvent({ id: 1 }));
    hub().publish([hamlet], messageEvent({ id: 2, stream: 'Verona' }));
    hub().publish([hamlet], messageEvent({ id: 3, subject: 'moat' }));
    hub().publish([hamlet], { type: 'custom_test' });
    const events = (await poll('hamlet', q)).body.events;
    expect(events.map((e: any) => (e.type === 'message' ? e.message.id : e.type))).toEqual([1, 'custom_test']);
  });
});

describe('server lifecycle', () => {
  it('a world reset drops the queues: clients must register again', async () => {
    const own = await startTestServer({ longpollTimeoutSeconds: 1 });
    try {
      const r = await own.as('hamlet').post('/register', { fetch_event_types: [] });
      own.server.world.reset();
      const g = await own.as('hamlet').get('/events', { queue_id: r.body.queue_id, dont_block: true });
      expect(g.body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: r.body.queue_id });
    } finally {
      await own.close();
    }
  });

  it('closing the server ends a waiting long-poll cleanly and promptly', async () => {
    const own = await startTestServer({ longpollTimeoutSeconds: 30 });
    const r = await own.as('hamlet').post('/register', { fetch_event_types: [] });
    const pending = own.as('hamlet').get('/events', { queue_id: r.body.queue_id, last_event_id: -1 });
    await new Promise((res) => setTimeout(res, 100));
    const started = Date.now();
    await own.close();
    const g = await pending;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(g.status).toBe(200);
    expect(g.body).toEqual({ result: 'success', msg: '', events: [], queue_id: r.body.queue_id });
  });
});

describe('message events of a real send, as each queue asked for them', () => {
  it('topic, content and avatar follow empty_topic_name, apply_markdown and client_gravatar', async () => {
    const plain = await registerQueue(t, 'othello');
    const modern = await registerQueue(t, 'othello', undefined, {
      apply_markdown: true,
      client_gravatar: false,
      client_capabilities: { empty_topic_name: true },
    });
    const sent = await t
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Denmark', topic: '', content: 'in **general**' });
    expect(sent.status).toBe(200);
    const [p] = (await poll('othello', plain)).body.events;
    expect(p.message).toMatchObject({
      id: sent.body.id,
      subject: 'general chat',
      content: 'in **general**',
      content_type: 'text/x-markdown',
      avatar_url: null,
    });
    const [m] = (await poll('othello', modern)).body.events;
    expect(m.message).toMatchObject({
      id: sent.body.id,
      subject: '',
      content: '<p>in <strong>general</strong></p>',
      content_type: 'text/html',
    });
    expect(m.message.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
    expect(t.server.world.store.messages.get(sent.body.id)!.topic).toBe('');
  });

  it('all_public_streams queues also get public channel messages of channels the user is not in', async () => {
    const store = t.server.world.store;
    const othello = t.user('othello').user_id;
    const rome = store.streams.by('name', 'rome')!;
    const core = store.streams.by('name', 'core team')!;
    expect(store.subscriptions.has(`${othello}:${rome.stream_id}`)).toBe(false);
    expect(store.subscriptions.has(`${othello}:${core.stream_id}`)).toBe(false);
    expect(core.invite_only).toBe(true);
    const everything = await registerQueue(t, 'othello', undefined, { all_public_streams: true });
    const usual = await registerQueue(t, 'othello');
    const inRome = await t
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Rome', topic: 'forum', content: 'public' });
    const inCore = await t
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'core team', topic: 'secret', content: 'private' });
    expect([inRome.status, inCore.status]).toEqual([200, 200]);
    const got = (await poll('othello', everything)).body.events;
    expect(got.map((e: any) => e.message.id)).toEqual([inRome.body.id]);
    expect(got[0].flags).toEqual([]);
    expect((await poll('othello', usual)).body.events).toEqual([]);
  });

  it('a direct message keeps its empty subject for every queue', async () => {
    const plain = await registerQueue(t, 'othello');
    const sent = await t
      .as('hamlet')
      .post('/messages', { type: 'direct', to: [t.user('othello').user_id], content: 'psst' });
    expect(sent.status).toBe(200);
    const [e] = (await poll('othello', plain)).body.events;
    expect(e.message).toMatchObject({ id: sent.body.id, type: 'private', subject: '' });
  });
});
