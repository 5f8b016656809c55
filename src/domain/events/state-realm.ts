// Organization-level parts of the registration state: what every client learns (limits, version,
// empty-topic name, report types) and the `realm` section of the organization's settings.
import type { Ctx } from '../context.js';
import type { Store } from '../../store/store.js';
import type { Realm } from '../../store/state.js';

/** Sent whatever fetch_event_types says: clients need them to talk to the server at all. */
export function serverBasics(ctx: Ctx): Record<string, unknown> {
  const { server, store } = ctx;
  return {
    zulip_feature_level: server.featureLevel,
    zulip_version: server.version,
    zulip_merge_base: server.mergeBase,
    // The same values the description's maxLength rules enforce (see server-info.ts).
    ...server.limits,
    realm_empty_topic_display_name: server.emptyTopicDisplayName,
    server_report_message_types: server.reportMessageTypes.map((t) => ({ ...t })),
    realm_moderation_request_channel_id: store.realm.moderation_request_channel_id ?? -1,
    realm_topics_policy: store.realm.topics_policy,
    event_queue_longpoll_timeout_seconds: server.longpollTimeoutSeconds,
  };
}

/** Realm fields reported as realm_<name>, with the ones whose "none" the API writes as -1. */
const REALM_FIELDS: Array<keyof Realm> = [
  'name', 'description', 'date_created', 'default_language', 'message_retention_days',
  'enable_spectator_access', 'waiting_period_threshold', 'allow_message_editing',
  'message_content_edit_limit_seconds', 'push_notifications_enabled',
  'can_mention_many_users_group', 'can_create_public_channel_group', 'can_create_private_channel_group',
  'can_create_web_public_channel_group', 'can_add_subscribers_group', 'can_manage_all_groups',
  'can_create_groups', 'can_create_bots_group', 'can_delete_any_message_group', 'can_delete_own_message_group',
  'can_move_messages_between_channels_group', 'can_move_messages_between_topics_group',
  'can_resolve_topics_group', 'direct_message_permission_group', 'direct_message_initiator_group',
];
const CHANNEL_ID_FIELDS: Array<keyof Realm> = ['new_stream_announcements_stream_id', 'signup_announcements_stream_id'];

export function realmState(store: Store): Record<string, unknown> {
  const realm = store.realm;
  const out: Record<string, unknown> = { realm_url: realm.url, realm_id: realm.id };
  for (const f of REALM_FIELDS) if (realm[f] !== undefined) out[`realm_${f}`] = structuredClone(realm[f]);
  for (const f of CHANNEL_ID_FIELDS) out[`realm_${f}`] = realm[f] ?? -1;
  if (realm.can_create_users_group !== undefined) out.realm_can_create_users_group = structuredClone(realm.can_create_users_group);
  out.server_web_public_streams_enabled = realm.web_public_streams_enabled;
  return out;
}

export function realmEmojiState(store: Store): Record<string, unknown> {
  const emoji: Record<string, unknown> = {};
  for (const e of store.realmEmoji.all()) {
    emoji[String(e.id)] = { id: String(e.id), name: e.name, source_url: e.source_url, deactivated: e.deactivated, author_id: e.author_id };
  }
  return { realm_emoji: emoji };
}

export function linkifierState(store: Store): Record<string, unknown> {
  return { realm_linkifiers: store.linkifiers.all().map((l) => structuredClone(l)) };
}

/** Deactivated groups only for clients with the include_deactivated_groups capability. */
export function userGroupState(store: Store, includeDeactivated: boolean): Record<string, unknown> {
  const groups = store.userGroups.filter((g) => includeDeactivated || !g.deactivated);
  return {
    realm_user_groups: groups.map((g) => ({
      id: g.id,
      name: g.name,
      description: g.description,
      members: g.direct_members.filter((id) => store.users.get(id)?.is_active),
      direct_subgroup_ids: [...g.direct_subgroups],
      is_system_group: g.is_system_group,
      creator_id: g.creator_id,
      date_created: g.date_created,
      deactivated: g.deactivated,
      can_add_members_group: structuredClone(g.can_add_members_group),
      can_join_group: structuredClone(g.can_join_group),
      can_leave_group: structuredClone(g.can_leave_group),
      can_manage_group: structuredClone(g.can_manage_group),
      can_mention_group: structuredClone(g.can_mention_group),
      can_remove_members_group: structuredClone(g.can_remove_members_group),
    })),
  };
}

export function channelFolderState(store: Store): Record<string, unknown> {
  const folders = [...store.channelFolders.all()].sort((a, b) => a.order - b.order);
  return {
    channel_folders: folders.map((f) => ({
      id: f.id,
      name: f.name,
      description: f.description,
      rendered_description: f.rendered_description,
      order: f.order,
      creator_id: f.creator_id,
      date_created: f.date_created,
      is_archived: f.is_archived,
    })),
  };
}
