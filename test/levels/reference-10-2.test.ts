// The reference check itself (test/setup/reference-10-2.ts): it must report what a 10.2 server
// could not have sent, or it holds nothing. Skipped, said once, where the reference file is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { referenceChecker, referencePath, REFERENCE_LEVEL } from '../setup/reference-10-2.js';
import { presenceProblems } from '../setup/register-presence.js';
import { takeReferenceProblems } from '../setup/contract-guard.js';

const checker = referenceChecker();

describe.skipIf(!checker)('the reference check against the real 10.2 description', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ featureLevel: REFERENCE_LEVEL });
  });
  afterAll(async () => {
    await t.close();
  });

  const at = (level: number) => t.as('hamlet', { 'X-Mock-Feature-Level': String(level) });

  it('reports a field newer than 372 (an FL 396 channel setting) in an answer claimed at 372', async () => {
    const newer = await at(396).get('/streams/1');
    expect(newer.body.stream).toHaveProperty('can_move_messages_out_of_channel_group');
    const problems = checker!.check({
      method: 'GET',
      path: '/streams/{stream_id}',
      status: 200,
      body: newer.body,
      params: {},
    });
    expect(problems).toContain(
      'GET /streams/{stream_id} 200: /stream/can_move_messages_out_of_channel_group: field not in 10.2',
    );
    // The mock's own answer at 372 has none of it, and the guard saw nothing to report.
    const own = await at(372).get('/streams/1');
    expect(own.body.stream).not.toHaveProperty('can_move_messages_out_of_channel_group');
    expect(
      checker!.check({ method: 'GET', path: '/streams/{stream_id}', status: 200, body: own.body, params: {} }),
    ).toEqual([]);
    expect(takeReferenceProblems()).toEqual([]);
  });

  it('reports a value of the wrong type (10.2 marks few fields required: absence is held by the register rules)', () => {
    const body = { result: 'success', msg: '', user: { user_id: 'nine' } };
    expect(checker!.check({ method: 'GET', path: '/users/{user_id}', status: 200, body, params: {} })).toEqual([
      'GET /users/{user_id} 200: /user/user_id: must be integer',
    ]);
    const events = { result: 'success', msg: '', queue_id: 'q', events: [{ id: 1, type: 'heartbeat' }] };
    expect(checker!.check({ method: 'GET', path: '/events', status: 200, body: events, params: {} })).toEqual([]);
  });

  it('checks each event against its kind, and reports a kind 10.2 did not have', () => {
    expect(checker!.eventProblems({ id: 1, type: 'heartbeat' }, '/events/0')).toEqual([]);
    expect(
      checker!.eventProblems({ id: 2, type: 'channel_folder', op: 'add', channel_folder: {} }, '/events/1'),
    ).toEqual(['/events/1: no event of type channel_folder/add at 10.2']);
    const problems = checker!.eventProblems(
      {
        id: 3,
        type: 'typing',
        op: 'start',
        message_type: 'direct',
        sender: { user_id: 1, email: 'a@b' },
        recipients: [],
        extra: 1,
      },
      '/events/2',
    );
    expect(problems).toContain('/events/2 (typing/start)/extra: field not in 10.2');
  });

  it("lets through what 10.2 sends beyond its description (the sender's local_message_id, a bot's own bot fields), nothing else", async () => {
    const queue = (await at(372).post('/register', { event_types: ['message'], fetch_event_types: [] })).body.queue_id;
    const sent = await at(372).post('/messages', {
      type: 'stream',
      to: 'Denmark',
      topic: 'echo',
      content: 'hi',
      queue_id: queue,
      local_id: '7.01',
    });
    expect(sent.status).toBe(200);
    const [event] = (await at(372).get('/events', { queue_id: queue, last_event_id: -1, dont_block: true })).body
      .events;
    expect(event.local_message_id).toBe('7.01');
    expect(checker!.eventProblems(event, '/events/0')).toEqual([]);
    expect(checker!.eventProblems({ ...event, local_id: '7.01' }, '/events/0')).toEqual([
      '/events/0 (message)/local_id: field not in 10.2',
    ]);
    const bot = await t.as('iago-bot', { 'X-Mock-Feature-Level': '372' }).get('/users/me');
    expect(bot.body).toMatchObject({ bot_type: 1, bot_owner_id: t.user('iago').user_id });
    const own = { method: 'GET', path: '/users/me', status: 200, params: {} };
    expect(checker!.check({ ...own, body: bot.body })).toEqual([]);
    expect(checker!.check({ ...own, body: { ...bot.body, bot_secret: 'x' } })).toEqual([
      'GET /users/me 200: /bot_secret: field not in 10.2',
    ]);
    expect(takeReferenceProblems()).toEqual([]);
  });

  it('reads register presence from the description and from the table of the few it does not state', () => {
    const rules = checker!.presence;
    expect(rules.get('realm_users')).toEqual({ sections: ['realm_user'] });
    expect(rules.get('realm_create_public_stream_policy')).toEqual({ sections: ['realm'] });
    expect(rules.get('unread_msgs')).toEqual({ sections: ['message', 'update_message_flags'] });
    expect(rules.get('enter_sends')).toEqual({
      sections: ['update_display_settings'],
      unlessCapability: 'user_settings_object',
    });
    expect(rules.get('muted_topics')).toEqual({ sections: ['muted_topics'], unlessUserTopic: true });
  });

  it('reports a register field present without its section, and one missing with it', () => {
    const base = {
      result: 'success',
      msg: '',
      queue_id: 'q',
      last_event_id: -1,
      zulip_feature_level: 372,
      zulip_version: '10.2',
      zulip_merge_base: '10.2',
    };
    const rules = checker!.presence;
    expect(presenceProblems(rules, { ...base, realm_filters: [] }, { fetch_event_types: ['realm_filters'] })).toEqual(
      [],
    );
    expect(
      presenceProblems(rules, { ...base, realm_filters: [] }, { fetch_event_types: ['alert_words'] }).sort(),
    ).toEqual([
      '/alert_words: missing (10.2 sends it when: alert_words)',
      '/realm_filters: present (10.2 sends it only when: realm_filters)',
    ]);
    // muted_topics: not when user_topic is named too; with everything, both.
    expect(
      presenceProblems(rules, { ...base, muted_topics: [] }, { fetch_event_types: ['muted_topics', 'user_topic'] }),
    ).toContain('/muted_topics: present (10.2 sends it only when: muted_topics, and user_topic not named)');
    expect(presenceProblems(rules, base, {}).filter((p) => /muted_topics|realm_filters/.test(p))).toEqual([
      '/muted_topics: missing (10.2 sends it when: muted_topics, and user_topic not named)',
      '/realm_filters: missing (10.2 sends it when: realm_filters)',
    ]);
  });

  it('the mock at 372 registers as 10.2 does: every section, several ways of asking', async () => {
    const hamlet = at(372);
    for (const params of [
      {},
      { fetch_event_types: ['user_topic', 'muted_topics'] },
      { event_types: ['realm', 'message'] },
      { fetch_event_types: ['realm_incoming_webhook_bots', 'realm_linkifiers', 'realm_filters'] },
      { client_capabilities: { user_settings_object: true, archived_channels: true, empty_topic_name: true } },
    ]) {
      expect((await hamlet.post('/register', params)).status).toBe(200);
    }
    // The guard checks each of them after the test; nothing may be left to report.
  });
});

describe('without the reference file', () => {
  it('finds no file where the variable names a missing one (the check then skips, saying so once)', () => {
    const before = process.env.ZULIP_10_2_YAML;
    process.env.ZULIP_10_2_YAML = '/nonexistent/zulip-10.2.yaml';
    try {
      expect(referencePath()).toBeNull();
    } finally {
      if (before === undefined) delete process.env.ZULIP_10_2_YAML;
      else process.env.ZULIP_10_2_YAML = before;
    }
  });
});
