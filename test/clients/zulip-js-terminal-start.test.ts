// The start of a terminal-client session through zulip-js: register with the event types and
// capabilities the Zulip terminal client names, read every key it reads at start-up (the first
// one missing, `presences`, used to crash it), then receive events. At the newest level and at
// two older ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zulipInit from 'zulip-js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FETCH_EVENT_TYPES = [
  'realm',
  'presence',
  'subscription',
  'message',
  'starred_messages',
  'update_message_flags',
  'muted_topics',
  'user_topic',
  'realm_user',
  'realm_user_groups',
  'update_global_notifications',
  'update_display_settings',
  'user_settings',
  'realm_emoji',
  'custom_profile_fields',
  'zulip_version',
];
const EVENT_TYPES = [
  'message',
  'update_message',
  'reaction',
  'subscription',
  'typing',
  'update_message_flags',
  'update_global_notifications',
  'update_display_settings',
  'user_settings',
  'realm_emoji',
  'realm_user',
  'user_topic',
];
const CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  user_settings_object: true,
};

/** Key paths the client reads, with the level each appeared at. */
const READS: Array<[string, number]> = [
  ['zulip_version', 0],
  ['zulip_feature_level', 0],
  ['max_message_id', 0],
  ['presences', 0],
  ['server_timestamp', 70],
  ['realm_users', 0],
  ['realm_non_active_users', 0],
  ['cross_realm_bots', 0],
  ['user_id', 0],
  ['email', 0],
  ['full_name', 0],
  ['is_admin', 0],
  ['avatar_url', 0],
  ['realm_name', 0],
  ['realm_uri', 0],
  ['realm_url', 257],
  ['realm_allow_message_editing', 0],
  ['realm_message_content_edit_limit_seconds', 0],
  ['realm_allow_edit_history', 0],
  ['realm_message_edit_history_visibility_policy', 358],
  ['realm_waiting_period_threshold', 0],
  ['realm_emoji', 0],
  ['subscriptions', 0],
  ['unsubscribed', 0],
  ['never_subscribed', 0],
  ['unread_msgs.count', 0],
  ['unread_msgs.pms', 0],
  ['unread_msgs.streams', 0],
  ['unread_msgs.huddles', 0],
  ['unread_msgs.mentions', 0],
  ['starred_messages', 0],
  ['user_topics', 134],
  ['realm_user_groups', 0],
  ['custom_profile_fields', 0],
  ['user_settings.enter_sends', 89],
  ['user_settings.send_private_typing_notifications', 105],
  ['user_settings.send_stream_typing_notifications', 105],
  ['user_settings.twenty_four_hour_time', 89],
  ['user_settings.pm_content_in_desktop_notifications', 89],
  ['user_settings.email_address_visibility', 163],
];

const at = (obj: any, path: string) =>
  path.split('.').reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), obj);

describe.each([511, 372, 300])('a terminal-client start at feature level %i', (level) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ featureLevel: level, longpollTimeoutSeconds: 1 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads every key it needs, then gets events', async () => {
    const z = await zulipInit({ realm: t.base, username: 'hamlet@zulip.com', apiKey: t.user('hamlet').api_key });
    const state = await z.queues.register({
      fetch_event_types: FETCH_EVENT_TYPES,
      event_types: EVENT_TYPES,
      apply_markdown: 'true',
      client_gravatar: 'true',
      include_subscribers: 'false',
      client_capabilities: JSON.stringify(CAPABILITIES),
    });
    expect(state.result).toBe('success');
    for (const [path, since] of READS) {
      if (level >= since) expect(at(state, path), `${path} at ${level}`).toBeDefined();
      else expect(at(state, path), `${path} at ${level}`).toBeUndefined();
    }
    // It names user_topic, so no muted_topics; with user_settings_object, no top-level settings.
    expect(state).not.toHaveProperty('muted_topics');
    expect(state).not.toHaveProperty('enable_sounds');

    const othello = await zulipInit({
      realm: t.base,
      username: 'othello@zulip.com',
      apiKey: t.user('othello').api_key,
    });
    await othello.messages.send({
      type: 'private',
      to: JSON.stringify([t.user('hamlet').user_id]),
      content: 'are you there?',
    });
    const r = await z.events.retrieve({ queue_id: state.queue_id, last_event_id: -1, dont_block: true });
    const message = r.events.find((e: any) => e.type === 'message');
    expect(message).toMatchObject({
      message: { content: '<p>are you there?</p>', sender_email: 'othello@zulip.com' },
      flags: [],
    });
  });
});
