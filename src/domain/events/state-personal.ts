// The client's own things in the registration state: settings, topic policies, scheduled messages,
// reminders, saved snippets, drafts and the users' statuses. Topics are shown as the client's
// capabilities ask (the empty topic by its display name for clients without empty_topic_name).
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { maxVisibleMessageId } from '../messages/max-visible.js';
import { reminderDict } from '../reminders/create.js';
import { scheduledMessageDict } from '../scheduled-messages/schedule.js';
import { NOTIFICATION_SOUNDS } from '../users/settings-values.js';
import { EMOJISET_CHOICES } from './state-server.js';

/** How the client writes the empty topic: "" or the organization's display name for it. */
export type TopicShown = (topic: string) => string;

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
  'color_scheme', 'default_language', 'demote_inactive_streams', 'emojiset', 'enable_drafts_synchronization',
  'fluid_layout_width', 'web_home_view', 'high_contrast_mode', 'left_side_userlist', 'starred_message_counts',
  'translate_emoticons', 'twenty_four_hour_time', 'receives_typing_notifications', 'enter_sends',
];
const LEGACY_NOTIFICATIONS = [
  'enable_desktop_notifications', 'enable_digest_emails', 'enable_login_emails', 'enable_marketing_emails',
  'email_notifications_batching_period_seconds', 'enable_offline_email_notifications', 'enable_offline_push_notifications',
  'enable_online_push_notifications', 'enable_sounds', 'enable_stream_desktop_notifications',
  'enable_stream_email_notifications', 'enable_stream_push_notifications', 'enable_stream_audible_notifications',
  'wildcard_mentions_notify', 'message_content_in_email_notifications', 'notification_sound',
  'pm_content_in_desktop_notifications', 'desktop_icon_count_display', 'realm_name_in_email_notifications_policy',
  'presence_enabled',
];

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

/** `muted_topics` (before user_topic): [channel name, topic, when muted] of each muted topic. */
export function mutedTopicState(store: Store, actor: User, shown: TopicShown): Record<string, unknown> {
  const muted = store.userTopics.filter((t) => t.user_id === actor.user_id && t.visibility_policy === 1);
  return {
    muted_topics: muted
      .filter((t) => store.streams.get(t.stream_id))
      .map((t) => [store.streams.get(t.stream_id)!.name, shown(t.topic), t.last_updated]),
  };
}

export function userTopicState(store: Store, actor: User, shown: TopicShown): Record<string, unknown> {
  const mine = store.userTopics.filter((t) => t.user_id === actor.user_id && t.visibility_policy !== 0);
  return {
    user_topics: mine.map((t) => ({
      stream_id: t.stream_id,
      topic_name: shown(t.topic),
      last_updated: t.last_updated,
      visibility_policy: t.visibility_policy,
    })),
  };
}

export function scheduledMessageState(store: Store, actor: User, shown: TopicShown): Record<string, unknown> {
  const pending = store.scheduledMessages.filter((m) => m.sender_id === actor.user_id && m.delivered_message_id === null);
  return {
    scheduled_messages: pending
      .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp)
      .map((m) => {
        const dict = scheduledMessageDict(m);
        if (m.type === 'stream') dict.topic = shown(m.topic);
        return dict;
      }),
  };
}

export function reminderState(store: Store, actor: User): Record<string, unknown> {
  const pending = store.reminders.filter((r) => r.user_id === actor.user_id && r.delivered_message_id === null);
  return {
    reminders: pending
      .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp)
      .map((r) => reminderDict(store, r)),
  };
}

export function savedSnippetState(store: Store, actor: User): Record<string, unknown> {
  return {
    saved_snippets: store.savedSnippets
      .filter((s) => s.user_id === actor.user_id)
      .map((s) => ({ id: s.id, title: s.title, content: s.content, date_created: s.date_created })),
  };
}

export function draftState(store: Store, actor: User, shown: TopicShown): Record<string, unknown> {
  return {
    drafts: store.drafts
      .filter((d) => d.user_id === actor.user_id)
      .map((d) => ({ id: d.id, type: d.type, to: [...d.to], topic: d.type === 'stream' ? shown(d.topic) : d.topic, content: d.content, timestamp: d.timestamp })),
  };
}

/** Statuses of the users who have one, keyed by user ID; `away` mirrors presence_enabled. */
export function userStatusState(store: Store): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const u of store.users.all()) {
    if (!u.is_active) continue;
    const s = u.status;
    const entry: Record<string, unknown> = {};
    if (s.status_text) entry.status_text = s.status_text;
    if (s.emoji_name) Object.assign(entry, { emoji_name: s.emoji_name, emoji_code: s.emoji_code, reaction_type: s.reaction_type });
    if (u.settings.presence_enabled === false) entry.away = true;
    if (Object.keys(entry).length) out[String(u.user_id)] = entry;
  }
  return { user_status: out };
}

/** The newest message the client's user can see; -1 when none. */
export function maxMessageIdState(store: Store, actor: User): Record<string, unknown> {
  return { max_message_id: maxVisibleMessageId(store, actor) };
}
