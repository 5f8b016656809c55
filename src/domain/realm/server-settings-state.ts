// The server's own configuration as POST /register reports it in the `realm` section: upload
// limits, password rules, presence and typing timings. These are the real server's defaults for a
// self-hosted installation; the mock enforces the upload size limits only (upload-limits.ts).
import { MAX_AVATAR_FILE_SIZE_MIB, MAX_FILE_UPLOAD_SIZE_MIB } from '../../upload-limits.js';
import { SERVER_PRESENCE } from '../presence/timings.js';
import type { ServerRules } from '../server-rules.js';
import { MAX_BULK_NEW_SUBSCRIPTION_MESSAGES } from '../server-info.js';

/** The server setting MIN_DEACTIVATED_REALM_DELETION_DAYS: POST /realm/deactivate refuses a shorter delay. */
export const MIN_DEACTIVATED_REALM_DELETION_DAYS = 14;

/** Values that do not depend on the organization. */
export function serverSettingsState(realmUrl: string, rules: ServerRules): Record<string, unknown> {
  return {
    max_avatar_file_size_mib: MAX_AVATAR_FILE_SIZE_MIB,
    max_file_upload_size_mib: MAX_FILE_UPLOAD_SIZE_MIB,
    max_icon_file_size_mib: 5,
    max_logo_file_size_mib: 5,
    settings_send_digest_emails: true,
    server_generation: SERVER_GENERATION,
    development_environment: rules.developmentEnvironment,
    password_min_length: rules.passwordMinLength,
    password_max_length: 100,
    password_min_guesses: rules.passwordMinGuesses,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: false,
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_needs_upgrade: false,
    server_can_summarize_topics: rules.canSummarizeTopics,
    server_emoji_data_url: `${realmUrl}/static/generated/emoji/emoji_api.json`,
    server_jitsi_server_url: 'https://meet.jit.si',
    jitsi_server_url: 'https://meet.jit.si',
    server_min_deactivated_realm_deletion_days: MIN_DEACTIVATED_REALM_DELETION_DAYS,
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
    // One table under the name of each range of levels (renamed at FL 442 and 453); the
    // shaper keeps the request's.
    giphy_rating_options: {
      disabled: { name: 'GIPHY integration disabled', id: -1 },
      y: { name: 'Allow GIFs rated Y (Very young audience)', id: 0 },
      g: { name: 'Allow GIFs rated G (General audience)', id: 1 },
      pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 2 },
      pg13: { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 3 },
      r: { name: 'Allow GIFs rated R (Restricted)', id: 4 },
    },
    gif_rating_options: gifRatingOptions(),
    gif_rating_policy_options: gifRatingOptions(),
    max_bulk_new_subscription_messages: MAX_BULK_NEW_SUBSCRIPTION_MESSAGES,
    realm_available_video_chat_providers: structuredClone(VIDEO_CHAT_PROVIDERS),
    realm_default_external_accounts: {
      github: {
        text: 'GitHub',
        url_pattern: 'https://github.com/%(username)s',
        name: 'GitHub',
        hint: 'Enter your GitHub username',
      },
      twitter: {
        text: 'Twitter',
        url_pattern: 'https://twitter.com/%(username)s',
        name: 'Twitter',
        hint: 'Enter your Twitter username',
      },
    },
    upgrade_text_for_wide_organization_logo: 'Available on Zulip Cloud Standard. Upgrade to access.',
  };
}

/**
 * The call providers this server offers (the real server's are those it is configured for: no
 * Zoom credentials here); PATCH /realm takes only their ids as video_chat_provider.
 */
export const VIDEO_CHAT_PROVIDERS: Readonly<Record<string, { name: string; id: number }>> = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
  big_blue_button: { name: 'BigBlueButton', id: 4 },
};

/**
 * The ratings of newer servers (Realm.GIPHY_RATING_OPTIONS of the 11.x/12.x code): ids from 0,
 * `pg-13` with its hyphen; the development organization's rating is 2, `g`.
 */
const gifRatingOptions = () => ({
  disabled: { name: 'GIPHY integration disabled', id: 0 },
  y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
  g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
  pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
  'pg-13': { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 4 },
  r: { name: 'Allow GIFs rated R (Restricted)', id: 5 },
});

/** Changes when the server restarts; clients compare it to tell a new server from an old one. */
const SERVER_GENERATION = Math.floor(Date.now() / 1000);
