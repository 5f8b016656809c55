// The shape of the mock's state: what fixtures/*.json hold and what the store keeps in memory.
// Field names follow the API's own names wherever the API shows the object, so that views can
// copy them out without renaming.

/** A group-setting value (spec 2.1): a user group ID, or an anonymous group. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export const Role = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 } as const;
type RoleValue = (typeof Role)[keyof typeof Role];

export type TopicsPolicy = 'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';

export interface Realm {
  id: number;
  name: string;
  description: string;
  url: string;
  date_created: number;
  /** Organization-level empty-topic rule (register: realm_topics_policy). */
  topics_policy: 'allow_empty_topic' | 'disable_empty_topic';
  /** Channel that receives message reports; null when not configured (register reports -1). */
  moderation_request_channel_id: number | null;
  new_stream_announcements_stream_id: number | null;
  signup_announcements_stream_id: number | null;
  /** Organization default, in days; -1 keeps forever. */
  message_retention_days: number;
  enable_spectator_access: boolean;
  /** The server setting WEB_PUBLIC_STREAMS_ENABLED. */
  web_public_streams_enabled: boolean;
  /** "Many" for wildcard mentions: more subscribers (channel) or participants (topic) than this. */
  wildcard_mention_large_threshold: number;
  /** Days before a member counts as a full member. */
  waiting_period_threshold: number;
  default_language: string;
  email_gateway_domain: string;
  push_notifications_enabled: boolean;
  /** Default channel IDs for new users. */
  default_stream_ids: number[];
  notification_bot_id: number;
  email_gateway_bot_id: number;
  welcome_bot_id?: number;
  can_mention_many_users_group: GroupSettingValue;
  can_create_public_channel_group: GroupSettingValue;
  can_create_private_channel_group: GroupSettingValue;
  can_create_web_public_channel_group: GroupSettingValue;
  can_add_subscribers_group: GroupSettingValue;
  can_manage_all_groups: GroupSettingValue;
  can_create_groups: GroupSettingValue;
  can_create_bots_group: GroupSettingValue;
  can_create_users_group?: GroupSettingValue;
  can_delete_any_message_group: GroupSettingValue;
  can_delete_own_message_group: GroupSettingValue;
  can_move_messages_between_channels_group: GroupSettingValue;
  can_move_messages_between_topics_group: GroupSettingValue;
  can_resolve_topics_group: GroupSettingValue;
  direct_message_permission_group: GroupSettingValue;
  direct_message_initiator_group: GroupSettingValue;
  /** Seconds a user may edit a message's content after sending; null means no limit. */
  message_content_edit_limit_seconds: number | null;
  allow_message_editing: boolean;
  /** Seconds after sending during which members may move a message to another topic / channel; null: no limit. */
  move_messages_within_stream_limit_seconds?: number | null;
  move_messages_between_streams_limit_seconds?: number | null;
  /** Seconds after sending during which a user may delete their own message; null: no limit. */
  message_content_delete_limit_seconds?: number | null;
  /**
   * Who may see users' real addresses, for the whole organization: the setting of servers before
   * feature level 163 (PATCH /realm, register's realm_email_address_visibility), which answers
   * and events at those levels apply to every person as if it were their own; from 163 each
   * account's own setting (settings.email_address_visibility) decides instead. Absent: 1,
   * everyone. The two are kept apart so that one world can answer at either level.
   */
  email_address_visibility?: 1 | 3 | 4 | 5;
  /**
   * Organization settings the mock shows in POST /register (as realm_<name>) but whose rules it
   * does not enforce: inline previews, invitation and e-mail policies, video calls, ... Some are
   * read where a rule needs them (the invitation groups, can_set_topics_policy_group,
   * can_set_delete_message_policy_group, send_channel_events_messages); the settings of FL 392 to
   * 477 may be left out, their defaults then apply (src/domain/realm/newer-settings.ts).
   */
  shown_settings?: Record<string, unknown>;
  /** Fields of the organization's user profiles (register: custom_profile_fields). */
  custom_profile_fields?: CustomProfileField[];
  /** E-mail domains the organization accepts (register: realm_domains). */
  domains?: Array<{ id?: number; domain: string; allow_subdomains: boolean }>;
  /** Code playgrounds offered for code blocks of a language (register: realm_playgrounds). */
  playgrounds?: Array<{ id: number; name: string; pygments_language: string; url_template: string }>;
  /** Named groups of default channels offered at sign-up (register: realm_default_stream_groups). */
  default_stream_groups?: Array<{ id: number; name: string; description: string; streams: number[] }>;
  /** The organization's changes to the settings new users start with (PATCH /realm/user_settings_defaults). */
  user_settings_defaults?: Partial<UserSettings>;
  /** Deactivated (POST /realm/deactivate): every API request is refused until the control API reactivates it. */
  deactivated?: boolean;
  /** Data exports requested through the API (GET /export/realm), with their archives. */
  exports?: RealmExportRow[];
}

/**
 * A data export. Its archive is kept, base64, from the request on (the mock takes the data as at
 * the request) and served once the export succeeded, until it is deleted.
 */
export interface RealmExportRow {
  id: number;
  /** 1 public, 2 standard (with the private data of consenting users), 3 full without consent (everyone's). */
  type: 1 | 2 | 3;
  acting_user_id: number;
  status: 'requested' | 'succeeded' | 'failed' | 'deleted';
  /** UNIX seconds (with fractions) of the request, success, failure and deletion. */
  date_requested: number;
  date_succeeded: number | null;
  date_failed: number | null;
  date_deleted: number | null;
  /** `<token>/<file name>` below /user_avatars/exports/<realm id>/. */
  path: string;
  content_base64: string | null;
  /**
   * Carried across a realm import: the export ran on a previous server, whose archive is not
   * here (export_from_prior_server from 499). It cannot be deleted.
   */
  from_prior_server?: boolean;
}

/** A field of user profiles: type 1 short text, 2 long text, 3 list of options, 4 date, 5 link, 6 users, 7 external account, 8 pronouns. */
interface CustomProfileField {
  id: number;
  type: number;
  order: number;
  name: string;
  hint: string;
  /** JSON text: the options of a list field, the subtype of an external account; "" otherwise. */
  field_data: string;
  display_in_profile_summary?: boolean;
  required: boolean;
  editable_by_user: boolean;
}

/** When a user was last seen by a client, active or idle (UNIX seconds). */
interface Presence {
  active_timestamp: number;
  idle_timestamp: number;
  /** Increases with every presence change in the organization (register: presence_last_update_id). */
  last_update_id?: number;
}

/** Personal settings (spec 2.12 plus the ones the send and notification rules read). */
export interface UserSettings {
  twenty_four_hour_time: boolean;
  web_mark_read_on_scroll_policy: number;
  web_channel_default_view: number;
  starred_message_counts: boolean;
  receives_typing_notifications: boolean;
  web_suggest_update_timezone: boolean;
  fluid_layout_width: boolean;
  high_contrast_mode: boolean;
  web_font_size_px: number;
  web_line_height_percent: number;
  color_scheme: number;
  enable_drafts_synchronization: boolean;
  translate_emoticons: boolean;
  display_emoji_reaction_users: boolean;
  default_language: string;
  web_home_view: string;
  web_escape_navigates_to_home_view: boolean;
  left_side_userlist: boolean;
  emojiset: string;
  demote_inactive_streams: number;
  user_list_style: number;
  web_animate_image_previews: string;
  web_stream_unreads_count_display_policy: number;
  hide_ai_features: boolean;
  web_inbox_show_channel_folders: boolean;
  web_left_sidebar_show_channel_folders: boolean;
  web_left_sidebar_unreads_count_summary: boolean;
  timezone: string;
  enable_stream_desktop_notifications: boolean;
  enable_stream_email_notifications: boolean;
  enable_stream_push_notifications: boolean;
  enable_stream_audible_notifications: boolean;
  notification_sound: string;
  enable_desktop_notifications: boolean;
  enable_sounds: boolean;
  email_notifications_batching_period_seconds: number;
  wildcard_mentions_notify: boolean;
  presence_enabled: boolean;
  send_read_receipts: boolean;
  /** 1 topics the user participates in, 2 sends to, 3 initiates, 4 never. */
  automatically_follow_topics_policy: number;
  /** Same values, for unmuting topics in muted channels. */
  automatically_unmute_topics_in_muted_streams_policy: number;
  automatically_follow_topics_where_mentioned: boolean;
  [setting: string]: unknown;
}

export interface UserStatus {
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: '' | 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';
}

export interface User {
  user_id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  /** 32 alphanumeric characters. */
  api_key: string;
  /** Plain text on purpose: a mock's fixture, used by POST /fetch_api_key. */
  password: string;
  role: RoleValue;
  is_active: boolean;
  is_bot: boolean;
  /** 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded; null for people. */
  bot_type: number | null;
  bot_owner_id: number | null;
  /** Notification bot, email gateway bot, welcome bot. */
  is_system_bot: boolean;
  date_joined: string;
  /** UNIX seconds of the last activity; drives partial_subscribers. */
  last_active: number;
  avatar_version: number;
  timezone: string;
  settings: UserSettings;
  /** Names of settings the user changed themselves (for skip_if_already_edited). */
  settings_edited: string[];
  status: UserStatus;
  /** Set while an email change awaits confirmation. */
  pending_email: string | null;
  /**
   * The real server's special permission of that name (UserProfile.can_change_user_emails, which
   * only its change_user_role management command sets): an administrator holding it may change
   * other users' addresses (PATCH /users, `new_email`). Absent: not held, as for every user of
   * the real development organization; a fixture, an imported state or a scenario grants it.
   */
  can_change_user_emails?: boolean;
  /** The last presence report of the user's clients; absent when none ever reported. */
  presence?: Presence;
  /** Words and phrases that notify the user like a mention. */
  alert_words?: string[];
  /** Users this user muted, with when (UNIX seconds). */
  muted_users?: Array<{ id: number; timestamp: number }>;
  /** Values of the organization's custom profile fields, keyed by field ID. */
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
  /** A bot's default channels (IDs; absent or null: none) and whether it gets every public channel's events. */
  default_sending_stream_id?: number | null;
  default_events_register_stream_id?: number | null;
  default_all_public_streams?: boolean;
  /** The uploaded avatar, `<realm id>/<hash>` (the path_id of its user_avatars row); absent: the Gravatar. */
  avatar_path?: string | null;
  /** The image at avatar_path was drawn by the server (avatar_source J, FL 456), not uploaded. */
  avatar_generated?: boolean;
  /** An outgoing webhook or embedded bot's service: its name, where it posts, its format and token. */
  bot_service?: BotService;
  /** An embedded or incoming webhook bot's configuration (for an incoming webhook, integration_id names its integration). */
  bot_config?: Record<string, string>;
}

export interface BotService {
  name: string;
  /** The outgoing webhook's URL; empty for an embedded bot. */
  base_url: string;
  /** 1 Zulip's own outgoing webhook format, 2 Slack's. */
  interface: number;
  token: string;
}

/** An uploaded avatar's image, as sent; served at /user_avatars/<path_id>.png. */
export interface UserAvatar {
  /** `<realm id>/<hash>`: unguessable, and new with each upload. */
  path_id: string;
  user_id: number;
  content_type: string;
  content_base64: string;
}

export interface Stream {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  /** null inherits the organization setting; -1 keeps forever. */
  message_retention_days: number | null;
  is_archived: boolean;
  folder_id: number | null;
  topics_policy: TopicsPolicy;
  is_recently_active: boolean;
  stream_weekly_traffic: number | null;
  can_add_subscribers_group: GroupSettingValue;
  can_remove_subscribers_group: GroupSettingValue;
  can_administer_channel_group: GroupSettingValue;
  can_delete_any_message_group: GroupSettingValue;
  can_delete_own_message_group: GroupSettingValue;
  can_move_messages_out_of_channel_group: GroupSettingValue;
  can_move_messages_within_channel_group: GroupSettingValue;
  can_send_message_group: GroupSettingValue;
  can_subscribe_group: GroupSettingValue;
  can_create_topic_group: GroupSettingValue;
  can_resolve_topics_group: GroupSettingValue;
  /** A user's first subscription starts with push_notifications on (FL 507); absent means false. */
  default_push_notifications?: boolean;
}

export interface Subscription {
  user_id: number;
  stream_id: number;
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  push_notifications: boolean | null;
  audible_notifications: boolean | null;
}

export interface UserGroup {
  id: number;
  name: string;
  description: string;
  is_system_group: boolean;
  direct_members: number[];
  direct_subgroups: number[];
  deactivated: boolean;
  creator_id: number | null;
  date_created: number | null;
  can_manage_group: GroupSettingValue;
  can_add_members_group: GroupSettingValue;
  can_remove_members_group: GroupSettingValue;
  can_join_group: GroupSettingValue;
  can_leave_group: GroupSettingValue;
  can_mention_group: GroupSettingValue;
}

export interface ChannelFolder {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  is_archived: boolean;
  order: number;
  creator_id: number | null;
  date_created: number;
}

export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
  example_input: string | null;
  reverse_template: string | null;
  alternative_url_templates: string[];
}

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
  user_id: number;
}

export interface Message {
  id: number;
  sender_id: number;
  type: 'stream' | 'private';
  /** Channel messages only; null for direct messages. */
  stream_id: number | null;
  /** "" is the empty topic; always "" for direct messages. */
  topic: string;
  /** Direct messages: every participant's user ID, sender included, sorted. */
  recipient_ids: number[];
  content: string;
  rendered_content: string;
  timestamp: number;
  client: string;
  /** Per-user flags (read, starred, mentioned, wildcard_mentioned, ...), keyed by user ID. */
  flags: Record<string, string[]>;
  reactions: Reaction[];
  last_edit_timestamp: number | null;
  /** When the message was last moved (topic or channel); absent or null if never. */
  last_moved_timestamp?: number | null;
  /** Edits and moves, most recent first (the real server's stored form). */
  edit_history?: EditHistoryEntry[];
}

/** One edit or move of a message: what it was before, and who changed it when. */
export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

export interface UserTopic {
  user_id: number;
  stream_id: number;
  topic: string;
  /** 0 none, 1 muted, 2 unmuted, 3 followed. */
  visibility_policy: number;
  last_updated: number;
}

export interface ScheduledMessage {
  scheduled_message_id: number;
  sender_id: number;
  type: 'stream' | 'private';
  /** Channel ID, or the list of recipient user IDs. */
  to: number | number[];
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  read_by_sender: boolean | null;
  /** The client that scheduled it; the delivered message is recorded as sent by it. */
  client?: string;
  failed: boolean;
  /** Set once delivered: the ID of the message it became. */
  delivered_message_id: number | null;
}

export interface Reminder {
  reminder_id: number;
  user_id: number;
  message_id: number;
  note: string;
  scheduled_delivery_timestamp: number;
  delivered_message_id: number | null;
}

export interface SavedSnippet {
  id: number;
  user_id: number;
  title: string;
  content: string;
  date_created: number;
}

/** One user's setting for a sidebar view: a built-in view's pinning, or a custom view (with a name). */
export interface NavigationView {
  user_id: number;
  fragment: string;
  is_pinned: boolean;
  name: string | null;
}

/** A registration the mock, as push bouncer, received from a remote server (POST /remotes/push/e2ee/register). */
export interface RemotePushDevice {
  server_uuid: string;
  realm_uuid: string;
  /** token_id (FL 468), or the push_account_id of FL 406-467 as a string. */
  token_id: string;
  bouncer_public_key: string;
  encrypted_push_registration: string;
  date_registered: number;
}

export interface Draft {
  id: number;
  user_id: number;
  type: 'stream' | 'private' | '';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** An uploaded file (the real server's Attachment): who uploaded it and which messages link it. */
export interface Attachment {
  id: number;
  /** Where it is served below /user_uploads/: `{realm_id}/{two hex digits}/{random}/{file name}`. */
  path_id: string;
  /** The file name it was stored as (the last part of path_id, unescaped). */
  name: string;
  owner_id: number;
  size: number;
  /** UNIX time in milliseconds, as GET /attachments reports it. */
  create_time: number;
  content_type: string;
  /** IDs of the messages whose content links the file, ascending. */
  message_ids: number[];
  /** The file's bytes, base64: kept with the state so that resets, sandboxes and --data treat them as the rest. */
  content_base64: string;
}

/**
 * A device of a user: either one registered the legacy way by its push token (`token` set), or a
 * logged-in device (POST /register_client_device, or a FL 406-467 registration by
 * push_account_id) that may be registered for end-to-end encrypted notifications.
 */
export interface PushDevice {
  device_id: number;
  user_id: number;
  /** Which app registered it: 'android' or 'ios'; null for a logged-in device not registered for push yet. */
  platform: 'android' | 'ios' | null;
  registered_at: number;
  /** The push token of a device registered the legacy way (APNs or FCM), absent for E2EE devices. */
  token?: string;
  /** The iOS app that registered an APNs token. */
  ios_app_id?: string;
  /** The client's own ID of a FL 406-467 registration (POST /mobile_push/register with push_account_id). */
  push_account_id?: number;
  /** The E2EE push registration (FL 468): the key, in base64, and the client's ID for it. */
  push_key?: string | null;
  push_key_id?: number | null;
  /** IDs of the device's FCM/APNs token, in base64 of 8 bytes: confirmed by the push relay, and still pending. */
  push_token_id?: string | null;
  pending_push_token_id?: string | null;
  push_token_kind?: 'apns' | 'fcm' | null;
  /** UNIX seconds when pending_push_token_id was last set. */
  push_token_last_updated_timestamp?: number | null;
  push_registration_error_code?: string | null;
}

/** A test push notification the mock "sent", kept so tests can see it. */
export interface SentPushNotification {
  id: number;
  user_id: number;
  device_id: number;
  kind: 'test';
  sent_at: number;
}

/**
 * An invitation: an email invitation (the real server's PreregistrationUser) or a reusable link
 * (its MultiuseInvite). Each kind numbers its own IDs, as the two tables do; `key` is the
 * confirmation key of its link, unique across both.
 */
export interface Invite {
  key: string;
  id: number;
  is_multiuse: boolean;
  /** The address an email invitation went to; null for a reusable link. */
  email: string | null;
  invited_by_user_id: number;
  /** UNIX seconds of creation (of the last sending, for a resent email invitation). */
  invited: number;
  /** UNIX seconds; null never expires. */
  expiry_date: number | null;
  invited_as: number;
  stream_ids: number[];
  group_ids: number[];
  include_realm_default_subscriptions: boolean;
  notify_referrer_on_join: boolean;
  /**
   * The welcome bot's custom text an administrator gave the invitation (FL 416): null or absent,
   * the organization's setting at the time the account is made; empty, none.
   */
  welcome_message_custom_text?: string | null;
  /** used: an account was created with it (email invitations); revoked: revoked, or another invitation of the address was used. */
  status: 'active' | 'used' | 'revoked';
}

/** One entry of an account's bot storage (PUT /bot_storage). */
export interface BotStorageEntry {
  user_id: number;
  key: string;
  value: string;
}

export interface RealmEmoji {
  id: number;
  name: string;
  source_url: string;
  deactivated: boolean;
  author_id: number | null;
  /** The uploaded image, served at source_url; absent (a fixture's emoji): a placeholder image is served. */
  content_base64?: string;
  /** The uploaded image's type (with content_base64). */
  content_type?: string;
}

export interface State {
  realm: Realm;
  users: User[];
  streams: Stream[];
  subscriptions: Subscription[];
  user_groups: UserGroup[];
  channel_folders: ChannelFolder[];
  linkifiers: Linkifier[];
  realm_emoji: RealmEmoji[];
  messages: Message[];
  user_topics: UserTopic[];
  scheduled_messages: ScheduledMessage[];
  reminders: Reminder[];
  saved_snippets: SavedSnippet[];
  navigation_views: NavigationView[];
  remote_push_devices: RemotePushDevice[];
  drafts: Draft[];
  attachments: Attachment[];
  push_devices: PushDevice[];
  sent_push_notifications: SentPushNotification[];
  bot_storage: BotStorageEntry[];
  /**
   * Email invitations and reusable invitation links, in any state (expired, used and revoked ones
   * too). Optional: fixtures and snapshots made before invitations existed have none.
   */
  invites?: Invite[];
  /** Uploaded avatars: the current one of each user who has one (named by the user's avatar_path). */
  user_avatars: UserAvatar[];
  /**
   * Subscriptions the user ended, with the settings they had: register lists these channels
   * under `unsubscribed`, and subscribing again brings the colour back, as on the real server.
   */
  former_subscriptions: Subscription[];
}
