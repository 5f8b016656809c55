// Facts about the organization's settings that the description cannot state: who may change
// them, how each is stored and how its event is shaped (the real server's own history shows in
// the last: a few settings still announce themselves as `update_dict`).

/** Settings only an organization owner may change. */
export const OWNER_ONLY_SETTINGS: ReadonlySet<string> = new Set([
  'invite_required',
  'emails_restricted_to_domains',
  'disallow_disposable_email_addresses',
  'waiting_period_threshold',
  'message_retention_days',
  'can_create_groups',
  'can_manage_all_groups',
  'can_invite_users_group',
  'create_multiuse_invite_group',
]);

/**
 * The organization's group permission settings PATCH /realm changes, and whether role:everyone
 * (which includes guests) may hold each.
 */
export const REALM_GROUP_SETTINGS: Readonly<Record<string, { allowEveryone: boolean }>> = {
  can_add_custom_emoji_group: { allowEveryone: false },
  can_add_subscribers_group: { allowEveryone: false },
  can_create_bots_group: { allowEveryone: false },
  can_create_write_only_bots_group: { allowEveryone: false },
  can_create_public_channel_group: { allowEveryone: false },
  can_create_private_channel_group: { allowEveryone: false },
  can_create_web_public_channel_group: { allowEveryone: false },
  can_delete_any_message_group: { allowEveryone: false },
  can_delete_own_message_group: { allowEveryone: true },
  can_mention_many_users_group: { allowEveryone: true },
  can_move_messages_between_channels_group: { allowEveryone: false },
  can_move_messages_between_topics_group: { allowEveryone: true },
  can_resolve_topics_group: { allowEveryone: true },
  can_summarize_topics_group: { allowEveryone: true },
  direct_message_initiator_group: { allowEveryone: true },
  direct_message_permission_group: { allowEveryone: true },
  can_create_groups: { allowEveryone: false },
  can_manage_all_groups: { allowEveryone: false },
  can_invite_users_group: { allowEveryone: false },
  create_multiuse_invite_group: { allowEveryone: false },
  can_set_delete_message_policy_group: { allowEveryone: false },
  can_set_topics_policy_group: { allowEveryone: true },
  workplace_users_group: { allowEveryone: true },
};

/** Time limits given in seconds or as `unlimited` (stored as null). */
export const TIME_LIMIT_SETTINGS: ReadonlySet<string> = new Set([
  'message_content_edit_limit_seconds',
  'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
]);

/** Settings naming a channel; a negative ID turns them off (stored as null, shown as -1). */
export const CHANNEL_SETTINGS: ReadonlySet<string> = new Set([
  'new_stream_announcements_stream_id',
  'signup_announcements_stream_id',
  'zulip_update_announcements_stream_id',
  'moderation_request_channel_id',
]);

/** Settings the real server changes, answers and announces even when given their current value. */
export const ALWAYS_CHANGED: ReadonlySet<string> = new Set(['org_type']);

/** Settings whose change the real server announces as `update_dict` rather than `update`. */
export const DICT_EVENT_SETTINGS: ReadonlySet<string> = new Set([
  'allow_message_editing',
  'message_content_edit_limit_seconds',
]);

/** `unlimited` in message_retention_days is stored as -1. */
export const RETENTION_FOREVER = -1;
