// POST /register builds a section per event type a client names, with the real server's keys
// and types, and leaves out keys newer than the feature level it answers at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { stream } from '../helpers/fixture-rows.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

type Kind = 'array' | 'object' | 'number' | 'string' | 'boolean';
/** Per event type: key -> [type, feature level it appeared at, level it went away at]. */
const SECTIONS: Record<string, Record<string, [Kind, number, number?]>> = {
  alert_words: { alert_words: ['array', 0] },
  custom_profile_fields: { custom_profile_fields: ['array', 0], custom_profile_field_types: ['object', 0] },
  onboarding_steps: { onboarding_steps: ['array', 233] },
  message: { max_message_id: ['number', 0] },
  drafts: { drafts: ['array', 87] },
  scheduled_messages: { scheduled_messages: ['array', 179] },
  muted_topics: { muted_topics: ['array', 0] },
  muted_users: { muted_users: ['array', 48] },
  presence: { presences: ['object', 0], server_timestamp: ['number', 70], presence_last_update_id: ['number', 263] },
  realm: {
    realm_name: ['string', 0],
    realm_description: ['string', 0],
    realm_authentication_methods: ['object', 0],
    realm_allow_message_editing: ['boolean', 0],
    realm_allow_edit_history: ['boolean', 0],
    realm_message_edit_history_visibility_policy: ['string', 358],
    realm_presence_disabled: ['boolean', 0],
    realm_url: ['string', 257],
    realm_uri: ['string', 0],
    realm_icon_url: ['string', 0],
    realm_bot_domain: ['string', 0],
    realm_can_create_groups: ['number', 299],
    realm_can_resolve_topics_group: ['number', 367],
    realm_move_messages_within_stream_limit_seconds: ['number', 162],
    realm_zulip_update_announcements_stream_id: ['number', 242],
    max_file_upload_size_mib: ['number', 0],
    password_min_length: ['number', 0],
    server_needs_upgrade: ['boolean', 74],
    server_presence_ping_interval_seconds: ['number', 164],
    server_typing_started_expiry_period_milliseconds: ['number', 204],
    server_thumbnail_formats: ['array', 273],
    giphy_rating_options: ['object', 0, 442],
    gif_rating_options: ['object', 442, 453],
    gif_rating_policy_options: ['object', 453],
    realm_giphy_rating: ['number', 55, 453],
    realm_gif_rating_policy: ['number', 453],
    realm_is_zephyr_mirror_realm: ['boolean', 0, 426],
    realm_date_created: ['number', 203],
    max_bulk_new_subscription_messages: ['number', 397],
    max_reminder_note_length: ['number', 415],
    realm_can_set_topics_policy_group: ['number', 392],
    realm_can_set_delete_message_policy_group: ['number', 407],
    realm_require_e2ee_push_notifications: ['boolean', 409],
    realm_welcome_message_custom_text: ['string', 416],
    realm_send_channel_events_messages: ['boolean', 434],
    realm_owner_full_content_access: ['boolean', 438],
    realm_default_avatar_source: ['string', 456],
    realm_uuid: ['string', 466],
    realm_media_preview_size: ['number', 469],
    realm_workplace_users_group: ['number', 477],
  },
  realm_user_settings_defaults: { realm_user_settings_defaults: ['object', 95] },
  realm_domains: { realm_domains: ['array', 0] },
  realm_emoji: { realm_emoji: ['object', 0] },
  realm_linkifiers: { realm_linkifiers: ['array', 54] },
  realm_filters: { realm_filters: ['array', 0] },
  realm_playgrounds: { realm_playgrounds: ['array', 49] },
  realm_user_groups: { realm_user_groups: ['array', 0] },
  realm_user: {
    realm_users: ['array', 0],
    realm_non_active_users: ['array', 0],
    cross_realm_bots: ['array', 0],
    user_id: ['number', 0],
    email: ['string', 0],
    delivery_email: ['string', 0],
    full_name: ['string', 0],
    is_admin: ['boolean', 0],
    is_owner: ['boolean', 11],
    is_moderator: ['boolean', 60],
    is_guest: ['boolean', 0],
    avatar_source: ['string', 0],
    avatar_url: ['string', 0],
    avatar_url_medium: ['string', 0],
    can_create_streams: ['boolean', 0],
    can_create_public_streams: ['boolean', 102],
    can_subscribe_other_users: ['boolean', 0],
    can_invite_others_to_realm: ['boolean', 51],
  },
  realm_bot: { realm_bots: ['array', 0] },
  realm_embedded_bots: { realm_embedded_bots: ['array', 0] },
  realm_incoming_webhook_bots: { realm_incoming_webhook_bots: ['array', 0] },
  recent_private_conversations: { recent_private_conversations: ['array', 0] },
  subscription: { subscriptions: ['array', 0], unsubscribed: ['array', 0], never_subscribed: ['array', 0] },
  starred_messages: { starred_messages: ['array', 0] },
  stream: { streams: ['array', 0] },
  default_streams: { realm_default_streams: ['array', 0] },
  default_stream_groups: { realm_default_stream_groups: ['array', 0] },
  stop_words: { stop_words: ['array', 0] },
  // The top-level copies of the settings went away with their event types at FL 439.
  update_display_settings: {
    twenty_four_hour_time: ['boolean', 0, 439],
    emojiset_choices: ['array', 0, 439],
    timezone: ['string', 0, 439],
    enter_sends: ['boolean', 0, 439],
  },
  update_global_notifications: {
    enable_sounds: ['boolean', 0, 439],
    available_notification_sounds: ['array', 0, 439],
    presence_enabled: ['boolean', 0, 439],
  },
  user_settings: { user_settings: ['object', 89] },
  user_status: { user_status: ['object', 0] },
  user_topic: { user_topics: ['array', 134] },
  video_calls: { has_zoom_token: ['boolean', 0] },
  giphy: { giphy_api_key: ['string', 0] },
  tenor: { tenor_api_key: ['string', 442] },
  saved_snippets: { saved_snippets: ['array', 297] },
  navigation_view: { navigation_views: ['array', 390] },
  reminders: { reminders: ['array', 399] },
  realm_billing: { realm_billing: ['object', 363] },
};

const kindOf = (v: unknown): string => (Array.isArray(v) ? 'array' : typeof v);

describe.each([511, 438, 372, 200])('POST /register at feature level %i', (level) => {
  const headers = { 'X-Mock-Feature-Level': String(level) };
  it.each(Object.keys(SECTIONS))("builds the %s section with the real server's keys", async (type) => {
    const r = await t.as('hamlet', headers).post('/register', { fetch_event_types: [type], slim_presence: true });
    expect(r.status).toBe(200);
    for (const [key, [kind, since, until = Infinity]] of Object.entries(SECTIONS[type])) {
      if (level >= since && level < until) expect(kindOf(r.body[key]), `${key} at ${level}`).toBe(kind);
      else expect(r.body, `${key} at ${level}`).not.toHaveProperty(key);
    }
  });
});

describe('POST /register: section contents and conditions', () => {
  it('gives presence by user ID with slim_presence and by email otherwise', async () => {
    const slim = await t.as('hamlet').post('/register', { fetch_event_types: ['presence'], slim_presence: true });
    const iago = t.user('iago');
    expect(slim.body.presences[String(iago.user_id)]).toEqual({
      active_timestamp: iago.presence!.active_timestamp,
      idle_timestamp: iago.presence!.idle_timestamp,
    });
    const legacy = await t.as('hamlet').post('/register', { fetch_event_types: ['presence'] });
    expect(legacy.body.presences['iago@zulip.com']).toMatchObject({
      aggregated: { client: 'website', status: 'active' },
    });
    // Deactivated users and users not seen for two weeks are left out.
    expect(legacy.body.presences).not.toHaveProperty('ariel@zulip.com');
    expect(legacy.body.presences).not.toHaveProperty('aaron@zulip.com');
  });

  it('sends muted_topics only to clients that do not also name user_topic', async () => {
    const both = await t.as('hamlet').post('/register', { fetch_event_types: ['muted_topics', 'user_topic'] });
    expect(both.body).not.toHaveProperty('muted_topics');
    const old = await t.as('hamlet').post('/register', { fetch_event_types: ['muted_topics'] });
    expect(Array.isArray(old.body.muted_topics)).toBe(true);
  });

  it('builds unread_msgs only when message and update_message_flags are both named', async () => {
    const one = await t.as('hamlet').post('/register', { fetch_event_types: ['update_message_flags'] });
    expect(one.body).not.toHaveProperty('unread_msgs');
    const r = await t.as('hamlet').post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
    const hamlet = String(t.user('hamlet').user_id);
    const unread = t.server.world.store.messages
      .filter((m) => !!m.flags[hamlet] && !m.flags[hamlet].includes('read'))
      .map((m) => m.id);
    const listed = [...r.body.unread_msgs.pms, ...r.body.unread_msgs.streams, ...r.body.unread_msgs.huddles]
      .flatMap((c: any) => c.unread_message_ids)
      .sort((a: number, b: number) => a - b);
    expect(listed).toEqual(unread);
    expect(r.body.unread_msgs.old_unreads_missing).toBe(false);
  });

  it('gives the user settings as top-level keys only to clients without user_settings_object', async () => {
    const modern = await t.as('hamlet').post('/register', {
      fetch_event_types: ['update_display_settings', 'update_global_notifications', 'user_settings'],
      client_capabilities: { user_settings_object: true },
    });
    expect(modern.body).not.toHaveProperty('enable_sounds');
    expect(modern.body.user_settings).toMatchObject({
      enter_sends: false,
      send_private_typing_notifications: true,
      email_address_visibility: 1,
    });
    const legacy = await t
      .as('hamlet', { 'X-Mock-Feature-Level': '438' })
      .post('/register', { fetch_event_types: ['update_display_settings', 'update_global_notifications'] });
    expect(legacy.body).toMatchObject({
      enable_sounds: true,
      enter_sends: false,
      available_notification_sounds: ['chime', 'ding', 'zulip'],
    });
    // From FL 439 no client gets them (the legacy event types went away too).
    const newest = await t
      .as('hamlet')
      .post('/register', { fetch_event_types: ['update_display_settings', 'update_global_notifications'] });
    expect(newest.body).not.toHaveProperty('enable_sounds');
    expect(newest.body).not.toHaveProperty('enter_sends');
  });

  it('lists a channel the user left under unsubscribed, with its colour', async () => {
    const r = await t.as('othello').post('/register', { fetch_event_types: ['subscription'] });
    const rome = t.server.world.store.streams.by('name', 'rome')!;
    expect(r.body.unsubscribed.map((s: any) => s.stream_id)).toEqual([rome.stream_id]);
    expect(r.body.unsubscribed[0]).toMatchObject({ name: 'Rome', color: '#c2726a' });
    expect(r.body.never_subscribed.map((s: any) => s.stream_id)).not.toContain(rome.stream_id);
  });

  it('gives avatar URLs in full at the top level and for bots, whatever client_gravatar says', async () => {
    const r = await t
      .as('iago')
      .post('/register', { fetch_event_types: ['realm_user', 'realm_bot'], client_gravatar: true });
    expect(r.body.avatar_url).toMatch(/^https:\/\//);
    // From FL 474 bot objects have no avatar (their user objects do).
    for (const bot of r.body.realm_bots) expect(bot).not.toHaveProperty('avatar_url');
    const old = await t
      .as('iago', { 'X-Mock-Feature-Level': '473' })
      .post('/register', { fetch_event_types: ['realm_bot'], client_gravatar: true });
    for (const bot of old.body.realm_bots) expect(bot.avatar_url).toMatch(/^https:\/\//);
    // Entries of the user lists leave is_active out: the list says it.
    for (const u of r.body.realm_users) expect(u).not.toHaveProperty('is_active');
  });

  it('leaves is_billing_admin out of user objects from feature level 363', async () => {
    const newest = await t.as('hamlet').post('/register', { fetch_event_types: ['realm_user'] });
    expect(newest.body.realm_users[0]).not.toHaveProperty('is_billing_admin');
    const old = await t
      .as('hamlet', { 'X-Mock-Feature-Level': '362' })
      .post('/register', { fetch_event_types: ['realm_user'] });
    expect(old.body.realm_users[0]).toHaveProperty('is_billing_admin', false);
  });

  it('gives guests no default channels', async () => {
    const r = await t
      .as('polonius')
      .post('/register', { fetch_event_types: ['default_streams', 'default_stream_groups'] });
    expect(r.body).toMatchObject({ realm_default_streams: [], realm_default_stream_groups: [] });
    const member = await t
      .as('hamlet')
      .post('/register', { fetch_event_types: ['default_streams', 'default_stream_groups'] });
    expect(member.body.realm_default_streams).toEqual(t.server.world.store.realm.default_stream_ids);
    // Channel IDs from FL 330, sorted by channel name.
    expect(member.body.realm_default_stream_groups[0].streams).toEqual(
      ['Venice', 'Verona'].map((n) => stream(t, n).stream_id),
    );
  });
});
