// POST /register: the queue, the server facts every client learns, and the starting state chosen
// by fetch_event_types and shaped by client_capabilities.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ longpollTimeoutSeconds: 1 });
});
afterAll(async () => {
  await t.close();
});

const store = () => t.server.world.store;

describe('POST /register: the queue and the server facts', () => {
  it('creates a queue with last_event_id -1 and reports version, feature level and limits', async () => {
    const r = await t.as('hamlet').post('/register', { fetch_event_types: ['realm'] });
    expect(r.status).toBe(200);
    expect(r.body.queue_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body).toMatchObject({
      result: 'success',
      msg: '',
      last_event_id: -1,
      zulip_feature_level: 511,
      zulip_version: '13.0-dev',
      zulip_merge_base: '13.0-dev',
      max_message_length: 10000,
      max_topic_length: 60,
      max_stream_name_length: 60,
      max_stream_description_length: 1024,
      max_channel_folder_name_length: 60,
      max_channel_folder_description_length: 1024,
      realm_empty_topic_display_name: 'general chat',
      realm_moderation_request_channel_id: store().realm.moderation_request_channel_id,
      realm_topics_policy: store().realm.topics_policy,
      event_queue_longpoll_timeout_seconds: 36, // the 1 s test heartbeat plus the real server's 35 s margin
      idle_queue_timeout_secs: 600,
    });
    expect(r.body.server_report_message_types).toEqual(
      expect.arrayContaining([
        { key: 'spam', name: 'Spam' },
        { key: 'other', name: 'Other reason' },
      ]),
    );
    expect(t.server.world.events.queuesOf(t.user('hamlet').user_id).map((q) => q.id)).toContain(r.body.queue_id);
  });

  it("without the realm section: the queue and the version only (the limits are the realm section's)", async () => {
    const r = await t.as('hamlet').post('/register', { fetch_event_types: [] });
    expect(Object.keys(r.body).sort()).toEqual([
      'idle_queue_timeout_secs',
      'last_event_id',
      'msg',
      'queue_id',
      'result',
      'server_report_message_types',
      'zulip_feature_level',
      'zulip_merge_base',
      'zulip_version',
    ]);
  });

  it('reports the limits the description enforces (one source)', async () => {
    const r = await t.as('hamlet').post('/register', { fetch_event_types: ['realm'] });
    const maxLength = (op: string, param: string) =>
      t.server.contract.byId.get(op)!.params.find((p) => p.name === param)!.schema.maxLength;
    expect(r.body.max_message_length).toBe(maxLength('send-message', 'content'));
    expect(r.body.max_topic_length).toBe(maxLength('send-message', 'topic'));
    expect(r.body.max_stream_name_length).toBe(maxLength('create-channel', 'name'));
    expect(r.body.max_stream_description_length).toBe(maxLength('create-channel', 'description'));
    expect(r.body.max_channel_folder_name_length).toBe(maxLength('update-channel-folder', 'name'));
    expect(r.body.max_channel_folder_description_length).toBe(maxLength('update-channel-folder', 'description'));
  });

  it('reports -1 when no moderation request channel is configured', async () => {
    const before = store().realm.moderation_request_channel_id;
    store().updateRealm({ moderation_request_channel_id: null });
    try {
      const r = await t.as('hamlet').post('/register', { fetch_event_types: ['realm'] });
      expect(r.body.realm_moderation_request_channel_id).toBe(-1);
    } finally {
      store().updateRealm({ moderation_request_channel_id: before });
    }
  });

  it('reports the feature level the server was started with', async () => {
    const old = await startTestServer({ featureLevel: 400 });
    try {
      const r = await old.as('hamlet').post('/register', { fetch_event_types: ['realm'] });
      expect(r.body).toMatchObject({
        zulip_feature_level: 400,
        zulip_version: '11.0-dev',
        event_queue_longpoll_timeout_seconds: 90,
      });
      // Report types are learnt here only from feature level 435.
      expect(r.body).not.toHaveProperty('server_report_message_types');
    } finally {
      await old.close();
    }
  });

  it('echoes idle_queue_timeout as idle_queue_timeout_secs', async () => {
    const r = await t.as('hamlet').post('/register', { fetch_event_types: [], idle_queue_timeout: 30 });
    expect(r.body.idle_queue_timeout_secs).toBe(30);
  });

  it('refuses all_public_streams to a guest, as the real server does', async () => {
    const r = await t.as('polonius').post('/register', { all_public_streams: true });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'User not authorized for this query' });
    const ok = await t.as('hamlet').post('/register', { all_public_streams: true, fetch_event_types: [] });
    expect(ok.status).toBe(200);
  });

  it('refuses a narrow operator that events cannot be filtered by', async () => {
    const r = await t.as('hamlet').post('/register', { narrow: [['search', 'castle']] });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Operator search not supported.' });
    const ok = await t
      .as('hamlet')
      .post('/register', { narrow: [{ operator: 'channel', operand: 'Denmark' }], fetch_event_types: [] });
    expect(ok.status).toBe(200);
  });
});

describe('POST /register: the starting state', () => {
  it('returns the realm_user section: the actor and the users, deactivated ones apart', async () => {
    const hamlet = t.user('hamlet');
    const r = await t.as('hamlet').post('/register', { fetch_event_types: ['realm_user'] });
    expect(r.body).toMatchObject({
      user_id: hamlet.user_id,
      email: hamlet.email,
      full_name: hamlet.full_name,
      is_admin: false,
    });
    // Keys the real server does not send at the top level.
    for (const key of ['role', 'avatar_version', 'is_billing_admin', 'realm_id'])
      expect(r.body, key).not.toHaveProperty(key);
    const ids = r.body.realm_users.map((u: any) => u.user_id);
    const expected = store()
      .users.filter((u) => u.is_active && !u.is_system_bot)
      .map((u) => u.user_id);
    expect(ids.sort((a: number, b: number) => a - b)).toEqual(expected.sort((a, b) => a - b));
    expect(ids).toContain(t.user('iago-bot').user_id);
    expect(r.body.realm_non_active_users.map((u: any) => u.user_id)).toEqual([t.user('ariel').user_id]);
    const iago = r.body.realm_users.find((u: any) => u.user_id === t.user('iago').user_id);
    expect(iago).toMatchObject({
      email: 'iago@zulip.com',
      full_name: 'Iago',
      is_admin: true,
      is_owner: false,
      is_guest: false,
      is_bot: false,
      role: 200,
    });
    // Only the sections asked for.
    expect(r.body.subscriptions).toBeUndefined();
    expect(r.body.user_settings).toBeUndefined();
    expect(r.body.realm_name).toBeUndefined();
  });

  it('defaults fetch_event_types to event_types', async () => {
    const r = await t.as('hamlet').post('/register', { event_types: ['subscription'] });
    expect(Array.isArray(r.body.subscriptions)).toBe(true);
    expect(r.body.realm_users).toBeUndefined();
    expect(r.body.user_settings).toBeUndefined();
  });

  it('returns every section when neither list is given (or event_types is null)', async () => {
    for (const params of [{}, { event_types: null }]) {
      const r = await t.as('hamlet').post('/register', params);
      for (const key of [
        'realm_users',
        'subscriptions',
        'realm_name',
        'user_settings',
        'user_topics',
        'scheduled_messages',
        'reminders',
        'saved_snippets',
        'realm_linkifiers',
        'realm_user_groups',
        'channel_folders',
        'user_id',
        'max_message_id',
      ]) {
        expect(r.body, key).toHaveProperty(key);
      }
    }
  });

  it('returns the subscriptions of the user, with subscribers when asked', async () => {
    const hamlet = t.user('hamlet');
    const r = await t.as('hamlet').post('/register', {
      fetch_event_types: ['subscription'],
      include_subscribers: true,
      client_capabilities: { archived_channels: true },
    });
    const mine = store().subscriptions.filter((s) => s.user_id === hamlet.user_id);
    expect(r.body.subscriptions.map((s: any) => s.stream_id).sort()).toEqual(mine.map((s) => s.stream_id).sort());
    const denmark = store().streams.by('name', 'denmark')!;
    const sub = r.body.subscriptions.find((s: any) => s.stream_id === denmark.stream_id);
    const row = mine.find((s) => s.stream_id === denmark.stream_id)!;
    expect(sub).toMatchObject({
      name: 'Denmark',
      color: row.color,
      is_muted: row.is_muted,
      in_home_view: !row.is_muted,
    });
    expect(sub.subscribers).toContain(hamlet.user_id);
    for (const s of r.body.never_subscribed) expect(mine.some((m) => m.stream_id === s.stream_id)).toBe(false);
  });

  it('leaves archived channels out for clients without the archived_channels capability', async () => {
    const oldRome = store().streams.by('name', 'old rome')!;
    expect(store().subscriptions.has(`${t.user('hamlet').user_id}:${oldRome.stream_id}`)).toBe(true);
    const r = await t.as('hamlet').post('/register', { fetch_event_types: ['subscription'] });
    const ids = [...r.body.subscriptions, ...r.body.never_subscribed].map((s: any) => s.stream_id);
    expect(ids).not.toContain(oldRome.stream_id);
    expect(ids).toContain(store().streams.by('name', 'denmark')!.stream_id);
    expect(r.body.subscriptions[0].subscribers).toBeUndefined();
  });

  it('returns the realm settings, linkifiers, groups and folders', async () => {
    const r = await t.as('hamlet').post('/register', {
      fetch_event_types: ['realm', 'realm_linkifiers', 'realm_user_groups', 'channel_folders'],
      client_capabilities: { linkifier_url_template: true },
    });
    expect(r.body).toMatchObject({ realm_name: store().realm.name, realm_description: store().realm.description });
    expect(r.body.realm_linkifiers).toEqual(store().linkifiers.all());
    expect(r.body).not.toHaveProperty('realm_can_create_users_group');
    // Without the capability a client would misread url_template: the real server sends none.
    const old = await t.as('hamlet').post('/register', { fetch_event_types: ['realm_linkifiers', 'realm_filters'] });
    expect(old.body).toMatchObject({ realm_linkifiers: [], realm_filters: [] });
    expect(r.body.realm_user_groups.map((g: any) => g.id)).toEqual(
      store()
        .userGroups.filter((g) => !g.deactivated)
        .map((g) => g.id),
    );
    expect(r.body.channel_folders.map((f: any) => f.id).sort()).toEqual(
      store()
        .channelFolders.all()
        .map((f) => f.id)
        .sort(),
    );
  });

  it("returns the user's settings, topics, scheduled messages, reminders and snippets", async () => {
    const hamlet = t.user('hamlet');
    const r = await t.as('hamlet').post('/register', {
      fetch_event_types: ['user_settings', 'user_topic', 'scheduled_messages', 'reminders', 'saved_snippets'],
    });
    expect(r.body.user_settings).toMatchObject({
      receives_typing_notifications: hamlet.settings.receives_typing_notifications,
      timezone: hamlet.settings.timezone,
    });
    const topics = store().userTopics.filter((x) => x.user_id === hamlet.user_id && x.visibility_policy !== 0);
    expect(r.body.user_topics).toHaveLength(topics.length);
    expect(r.body.user_topics).toContainEqual(
      expect.objectContaining({
        stream_id: topics[0].stream_id,
        topic_name: topics[0].topic,
        visibility_policy: topics[0].visibility_policy,
      }),
    );
    const scheduled = store().scheduledMessages.filter(
      (m) => m.sender_id === hamlet.user_id && m.delivered_message_id === null,
    );
    expect(r.body.scheduled_messages.map((m: any) => m.scheduled_message_id).sort()).toEqual(
      scheduled.map((m) => m.scheduled_message_id).sort(),
    );
    const reminders = store().reminders.filter((x) => x.user_id === hamlet.user_id && x.delivered_message_id === null);
    expect(r.body.reminders.map((x: any) => x.reminder_id).sort()).toEqual(reminders.map((x) => x.reminder_id).sort());
    const snippets = store().savedSnippets.filter((s) => s.user_id === hamlet.user_id);
    expect(r.body.saved_snippets).toEqual(
      snippets.map((s) => ({ id: s.id, title: s.title, content: s.content, date_created: s.date_created })),
    );
  });

  it('shows the empty topic by its display name unless the client has empty_topic_name', async () => {
    const hamlet = t.user('hamlet');
    const denmark = store().streams.by('name', 'denmark')!;
    const row = store().userTopics.insert({
      user_id: hamlet.user_id,
      stream_id: denmark.stream_id,
      topic: '',
      visibility_policy: 3,
      last_updated: 1,
    });
    try {
      const plain = await t.as('hamlet').post('/register', { fetch_event_types: ['user_topic'] });
      const emptyTopic = (body: any) =>
        body.user_topics.find((x: any) => x.stream_id === denmark.stream_id && x.visibility_policy === 3);
      expect(emptyTopic(plain.body).topic_name).toBe('general chat');
      const capable = await t
        .as('hamlet')
        .post('/register', { fetch_event_types: ['user_topic'], client_capabilities: { empty_topic_name: true } });
      expect(emptyTopic(capable.body).topic_name).toBe('');
    } finally {
      store().userTopics.remove(row);
    }
  });
});
