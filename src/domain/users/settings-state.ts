// The users' settings in the registration state: the client's own settings (as one object, or as
// the legacy top-level keys), the organization's defaults for new users, and the users' statuses.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { realmDefaultSettings } from './default-settings.js';
import { EMOJISET_CHOICES, NOTIFICATION_SOUNDS } from './settings-values.js';

/** The settings, with the choices a settings page offers (emoji sets, notification sounds). */
export function userSettingsState(actor: User): Record<string, unknown> {
  return {
    user_settings: {
      ...structuredClone(actor.settings),
      emojiset_choices: structuredClone(EMOJISET_CHOICES),
      available_notification_sounds: availableSounds(),
    },
  };
}

const availableSounds = () => [...NOTIFICATION_SOUNDS].filter((s) => s !== 'none').sort();

/**
 * Settings as top-level keys, for clients without the user_settings_object capability: the
 * display settings under `update_display_settings`, the notification settings under
 * `update_global_notifications` (the real server's two legacy event types).
 */
const LEGACY_DISPLAY = [
  'color_scheme',
  'default_language',
  'demote_inactive_streams',
  'emojiset',
  'enable_drafts_synchronization',
  'fluid_layout_width',
  'web_home_view',
  'high_contrast_mode',
  'left_side_userlist',
  'starred_message_counts',
  'translate_emoticons',
  'twenty_four_hour_time',
  'receives_typing_notifications',
  'enter_sends',
];
const LEGACY_NOTIFICATIONS = [
  'enable_desktop_notifications',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'email_notifications_batching_period_seconds',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_sounds',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'enable_stream_audible_notifications',
  'wildcard_mentions_notify',
  'message_content_in_email_notifications',
  'notification_sound',
  'pm_content_in_desktop_notifications',
  'desktop_icon_count_display',
  'realm_name_in_email_notifications_policy',
  'presence_enabled',
];

/**
 * The legacy events of a change of one setting, sent besides user_settings to queues without the
 * user_settings_object capability (the real do_change_user_setting): update_global_notifications
 * for a legacy notification setting, update_display_settings for a legacy display setting or the
 * time zone; none for the settings added since.
 */
export function legacySettingEvents(user: User, name: string, value: unknown, languageName?: string) {
  const events: Array<Record<string, unknown>> = [];
  if (LEGACY_NOTIFICATIONS.includes(name))
    events.push({ type: 'update_global_notifications', user: user.email, notification_name: name, setting: value });
  if (LEGACY_DISPLAY.includes(name) || name === 'timezone') {
    const event: Record<string, unknown> = {
      type: 'update_display_settings',
      user: user.email,
      setting_name: name,
      setting: value,
    };
    if (languageName !== undefined) event.language_name = languageName;
    events.push(event);
  }
  return events;
}

export function legacyDisplaySettingsState(actor: User): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of LEGACY_DISPLAY) out[k] = actor.settings[k];
  out.emojiset_choices = structuredClone(EMOJISET_CHOICES);
  out.timezone = actor.settings.timezone;
  return out;
}

export function legacyNotificationSettingsState(actor: User): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of LEGACY_NOTIFICATIONS) out[k] = actor.settings[k];
  out.available_notification_sounds = availableSounds();
  return out;
}

/** Statuses of the users who have one, keyed by user ID; `away` mirrors presence_enabled. */
export function userStatusState(store: Store): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const u of store.users.all()) {
    if (!u.is_active) continue;
    const s = u.status;
    const entry: Record<string, unknown> = {};
    if (s.status_text) entry.status_text = s.status_text;
    if (s.emoji_name)
      Object.assign(entry, { emoji_name: s.emoji_name, emoji_code: s.emoji_code, reaction_type: s.reaction_type });
    if (u.settings.presence_enabled === false) entry.away = true;
    if (Object.keys(entry).length) out[String(u.user_id)] = entry;
  }
  return { user_status: out };
}

/** The settings a new account of the organization starts with (no timezone: that is personal). */
export function realmUserDefaultsState(store: Store): Record<string, unknown> {
  const { timezone: _timezone, ...defaults } = realmDefaultSettings(store.realm);
  void _timezone;
  return {
    realm_user_settings_defaults: {
      ...defaults,
      emojiset_choices: structuredClone(EMOJISET_CHOICES),
      available_notification_sounds: availableSounds(),
    },
  };
}
