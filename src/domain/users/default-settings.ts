// The personal settings a new account starts with: the real server's defaults (an organization
// without realm_user_default overrides), in the language the organization uses, and those with
// the organization's own changes.
import type { Realm, UserSettings } from '../../store/state.js';

/** What a new account of the organization starts with: the defaults, with the organization's changes. */
export function realmDefaultSettings(realm: Realm): UserSettings {
  return { ...defaultUserSettings(realm.default_language), ...realm.user_settings_defaults };
}

function defaultUserSettings(language: string): UserSettings {
  return {
    twenty_four_hour_time: false, web_mark_read_on_scroll_policy: 1, web_channel_default_view: 1,
    starred_message_counts: true, receives_typing_notifications: true, web_suggest_update_timezone: true,
    fluid_layout_width: false, high_contrast_mode: false, web_font_size_px: 16, web_line_height_percent: 140,
    color_scheme: 1, enable_drafts_synchronization: true, translate_emoticons: false, display_emoji_reaction_users: true,
    default_language: language, web_home_view: 'inbox', web_escape_navigates_to_home_view: true, left_side_userlist: false,
    emojiset: 'google', demote_inactive_streams: 1, user_list_style: 2, web_animate_image_previews: 'on_hover',
    web_stream_unreads_count_display_policy: 2, hide_ai_features: false, web_inbox_show_channel_folders: true,
    web_left_sidebar_show_channel_folders: true, web_left_sidebar_unreads_count_summary: true, timezone: '',
    enable_stream_desktop_notifications: false, enable_stream_email_notifications: false,
    enable_stream_push_notifications: false, enable_stream_audible_notifications: false, notification_sound: 'zulip',
    enable_desktop_notifications: true, enable_sounds: true, email_notifications_batching_period_seconds: 120,
    wildcard_mentions_notify: true, presence_enabled: true, send_read_receipts: true,
    automatically_follow_topics_policy: 3, automatically_unmute_topics_in_muted_streams_policy: 2,
    automatically_follow_topics_where_mentioned: true,
    enable_followed_topic_desktop_notifications: true, enable_followed_topic_email_notifications: true,
    enable_followed_topic_push_notifications: true, enable_followed_topic_audible_notifications: true,
    enable_followed_topic_wildcard_mentions_notify: true, enable_offline_email_notifications: true,
    enable_offline_push_notifications: true, enable_online_push_notifications: true, enable_digest_emails: true,
    enable_login_emails: true, enable_marketing_emails: true, message_content_in_email_notifications: true,
    pm_content_in_desktop_notifications: true, desktop_icon_count_display: 1, realm_name_in_email_notifications_policy: 1,
    allow_private_data_export: false, web_navigate_to_sent_message: true, resolved_topic_notice_auto_read_policy: 'except_followed',
    enter_sends: false, send_private_typing_notifications: true, send_stream_typing_notifications: true,
    email_address_visibility: 1,
  };
}
