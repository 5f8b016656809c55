// The server's own configuration as POST /register reports it in the `realm` section: upload
// limits, password rules, presence and typing timings, integrations. These are the real server's
// defaults for a self-hosted installation; the mock enforces the upload size limit only.
import { MAX_AVATAR_FILE_SIZE_MIB, MAX_FILE_UPLOAD_SIZE_MIB } from '../../upload-limits.js';

/**
 * Presence timings of the newest real server: clients ping every minute and show a user offline
 * 200 s after their last report; a report refreshes the stored times at most every 55 s; the
 * legacy form calls a user active while the last activity is within 70 s of the last connection.
 */
export const SERVER_PRESENCE = { pingIntervalSeconds: 60, offlineThresholdSeconds: 200, minUpdateSeconds: 55, legacyActivityOffsetSeconds: 70 };

/** Values that do not depend on the organization. */
export function serverSettingsState(realmUrl: string): Record<string, unknown> {
  return {
    max_avatar_file_size_mib: MAX_AVATAR_FILE_SIZE_MIB,
    max_file_upload_size_mib: MAX_FILE_UPLOAD_SIZE_MIB,
    max_icon_file_size_mib: 5,
    max_logo_file_size_mib: 5,
    settings_send_digest_emails: true,
    server_generation: SERVER_GENERATION,
    development_environment: false,
    password_min_length: 6,
    password_max_length: 100,
    password_min_guesses: 10000,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: false,
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_needs_upgrade: false,
    server_can_summarize_topics: false,
    server_emoji_data_url: `${realmUrl}/static/generated/emoji/emoji_api.json`,
    server_jitsi_server_url: 'https://meet.jit.si',
    jitsi_server_url: 'https://meet.jit.si',
    server_min_deactivated_realm_deletion_days: 14,
    server_max_deactivated_realm_deletion_days: null,
    server_presence_ping_interval_seconds: SERVER_PRESENCE.pingIntervalSeconds,
    server_presence_offline_threshold_seconds: SERVER_PRESENCE.offlineThresholdSeconds,
    server_typing_started_expiry_period_milliseconds: 45000,
    server_typing_stopped_wait_period_milliseconds: 5000,
    server_typing_started_wait_period_milliseconds: 10000,
    server_thumbnail_formats: [
      { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
      { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
    ],
    giphy_rating_options: {
      disabled: { name: 'GIPHY integration disabled', id: -1 },
      y: { name: 'Allow GIFs rated Y (Very young audience)', id: 0 },
      g: { name: 'Allow GIFs rated G (General audience)', id: 1 },
      pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 2 },
      pg13: { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 3 },
      r: { name: 'Allow GIFs rated R (Restricted)', id: 4 },
    },
    realm_available_video_chat_providers: {
      disabled: { name: 'None', id: 0 },
      jitsi_meet: { name: 'Jitsi Meet', id: 1 },
      big_blue_button: { name: 'BigBlueButton', id: 4 },
    },
    realm_default_external_accounts: {
      github: { text: 'GitHub', url_pattern: 'https://github.com/%(username)s', name: 'GitHub', hint: 'Enter your GitHub username' },
      twitter: { text: 'Twitter', url_pattern: 'https://twitter.com/%(username)s', name: 'Twitter', hint: 'Enter your Twitter username' },
    },
    upgrade_text_for_wide_organization_logo: 'Available on Zulip Cloud Standard. Upgrade to access.',
  };
}

/** Changes when the server restarts; clients compare it to tell a new server from an old one. */
const SERVER_GENERATION = Math.floor(Date.now() / 1000);

/** `realm_embedded_bots`: the bots the server can run itself, with their configuration keys. */
export const EMBEDDED_BOTS = [
  { name: 'converter', config: {} },
  { name: 'encrypt', config: {} },
  { name: 'helloworld', config: {} },
  { name: 'virtual_fs', config: {} },
  { name: 'giphy', config: { key: 'GIPHY API key' } },
  { name: 'followup', config: { stream: 'followup' } },
];

/**
 * `realm_incoming_webhook_bots`: a few of the server's incoming-webhook integrations, in every
 * form at once: the response's level keeps `config` (before 318), `config_options` (from 318),
 * `url_options` (from 403).
 */
export const INCOMING_WEBHOOK_BOTS = [
  { name: 'github', display_name: 'GitHub', all_event_types: null, config: {}, config_options: [], url_options: [] },
  { name: 'gitlab', display_name: 'GitLab', all_event_types: null, config: {}, config_options: [], url_options: [] },
  { name: 'jira', display_name: 'Jira', all_event_types: null, config: {}, config_options: [], url_options: [] },
];

/** Emoji sets a user may choose, and the notification sounds the server ships. */
export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];
