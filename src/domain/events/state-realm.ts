// Organization-level parts of the registration state: what every client learns (limits, version,
// empty-topic name, report types) and the `realm` section of the organization's settings.
import type { Ctx } from '../context.js';
import type { Store } from '../../store/store.js';
import type { Realm, Stream, User, UserGroup } from '../../store/state.js';
import { isGuest } from '../users/roles.js';
import { channelActivity, type ChannelActivity } from '../channels/activity.js';
import { streamToDict } from '../channels/stream-dict.js';
import { createHash } from 'node:crypto';
import { serverSettingsState } from './state-server.js';
import { domainsForApi } from '../realm/domains.js';

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

/** Realm fields reported as realm_<name>. */
const REALM_FIELDS: Array<keyof Realm> = [
  'name', 'description', 'date_created', 'default_language', 'message_retention_days',
  'enable_spectator_access', 'waiting_period_threshold', 'allow_message_editing',
  'message_content_edit_limit_seconds', 'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds', 'move_messages_between_streams_limit_seconds',
  'push_notifications_enabled', 'url',
  'can_mention_many_users_group', 'can_create_public_channel_group', 'can_create_private_channel_group',
  'can_create_web_public_channel_group', 'can_add_subscribers_group', 'can_manage_all_groups',
  'can_create_groups', 'can_create_bots_group', 'can_delete_any_message_group', 'can_delete_own_message_group',
  'can_move_messages_between_channels_group', 'can_move_messages_between_topics_group',
  'can_resolve_topics_group', 'direct_message_permission_group', 'direct_message_initiator_group',
];
/** Channel settings whose "none" the API writes as -1. */
const CHANNEL_ID_FIELDS = ['new_stream_announcements_stream_id', 'signup_announcements_stream_id', 'zulip_update_announcements_stream_id'];

const gravatar = (text: string) => `https://secure.gravatar.com/avatar/${createHash('md5').update(text).digest('hex')}?d=identicon`;

/** The `realm` section: the organization's settings and the server's own configuration. */
export function realmState(store: Store): Record<string, unknown> {
  const realm = store.realm;
  const shown = realm.shown_settings ?? {};
  const out: Record<string, unknown> = {};
  for (const f of REALM_FIELDS) if (realm[f] !== undefined) out[`realm_${f}`] = structuredClone(realm[f]);
  for (const [name, value] of Object.entries(shown)) {
    if (!SERVER_DERIVED.has(name)) out[`realm_${name}`] = structuredClone(value);
  }
  for (const f of CHANNEL_ID_FIELDS) {
    const id = (realm as unknown as Record<string, unknown>)[f] ?? shown[f];
    out[`realm_${f}`] = typeof id === 'number' && store.streams.get(id) && !store.streams.get(id)!.is_archived ? id : -1;
  }
  out.realm_uri = realm.url;
  out.realm_allow_edit_history = shown.message_edit_history_visibility_policy !== 'none';
  out.realm_icon_url = shown.icon_source === 'U' ? `${realm.url}/user_avatars/${realm.id}/realm/icon.png` : gravatar(String(realm.id));
  out.realm_logo_url = `${realm.url}/static/images/logo/zulip-org-logo.svg?version=0`;
  out.realm_night_logo_url = out.realm_logo_url;
  out.realm_bot_domain = shown.bot_domain ?? new URL(realm.url).hostname;
  out.realm_authentication_methods = {
    Email: { enabled: true, available: true },
    GitHub: { enabled: false, available: true },
    Google: { enabled: false, available: true },
  };
  out.realm_email_auth_enabled = true;
  out.realm_password_auth_enabled = true;
  out.realm_digest_emails_enabled = !!shown.digest_emails_enabled;
  // The plan "limited" is Zulip Cloud's free plan.
  out.zulip_plan_is_not_limited = shown.plan_type !== 2;
  Object.assign(out, serverSettingsState(realm.url));
  out.server_web_public_streams_enabled = realm.web_public_streams_enabled;
  return out;
}

/** shown_settings entries that feed a computed field instead of being shown as they are. */
const SERVER_DERIVED = new Set(['bot_domain', 'zulip_update_announcements_stream_id', 'digest_emails_enabled']);

export function realmEmojiState(store: Store): Record<string, unknown> {
  const emoji: Record<string, unknown> = {};
  for (const e of store.realmEmoji.all()) {
    emoji[String(e.id)] = { id: String(e.id), name: e.name, source_url: e.source_url, deactivated: e.deactivated, author_id: e.author_id };
  }
  return { realm_emoji: emoji };
}

/**
 * Linkifiers for clients with the linkifier_url_template capability; the others get an empty list,
 * as from the real server, since they would read url_template as an old-style format string.
 * `realm_filters` (the pre-54 name) is always empty for the same reason.
 */
export function linkifierState(store: Store, urlTemplate: boolean): Record<string, unknown> {
  return { realm_linkifiers: urlTemplate ? store.linkifiers.all().map((l) => structuredClone(l)) : [] };
}

/** Deactivated groups only for clients with the include_deactivated_groups capability. */
/** One user group as GET /user_groups, the registration response and `user_group` add events show it. */
export function userGroupDict(store: Store, g: UserGroup): Record<string, unknown> {
  return {
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
  };
}

export function userGroupState(store: Store, includeDeactivated: boolean): Record<string, unknown> {
  const groups = store.userGroups.filter((g) => includeDeactivated || !g.deactivated);
  return { realm_user_groups: groups.map((g) => userGroupDict(store, g)) };
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

export function realmDomainState(store: Store): Record<string, unknown> {
  return { realm_domains: domainsForApi(store) };
}

export function playgroundState(store: Store): Record<string, unknown> {
  return { realm_playgrounds: (store.realm.playgrounds ?? []).map((p) => ({ ...p })) };
}

/**
 * The form default channels take at a level (DefaultChannels / DefaultChannelGroup.streams in the
 * description): 'ids', or before FL 330 'channels', the channel objects themselves.
 */
export type DefaultChannelForm = string | undefined;

const byName = (a: Stream, b: Stream) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Channels by ID in the given form: the IDs as given, or the channel objects of GET /streams
 * without stream_weekly_traffic, sorted by name (the real server's pre-330 DefaultStreamDict).
 */
function channelsIn(store: Store, ids: readonly number[], form: DefaultChannelForm, activity: () => ChannelActivity): unknown[] {
  if (form !== 'channels') return [...ids];
  const streams = ids.map((id) => store.streams.get(id)).filter((s): s is Stream => s !== undefined).sort(byName);
  const stats = activity();
  return streams.map((s) => {
    const { stream_weekly_traffic: _traffic, ...dict } = streamToDict(store, s, stats);
    return dict;
  });
}

/** The default channels as non-guests see them in register and in default_streams events. */
export function defaultChannelList(store: Store, form: DefaultChannelForm, now: number): unknown[] {
  return channelsIn(store, store.realm.default_stream_ids, form, () => channelActivity(store, now));
}

/** Guests do not see every default channel, so the real server tells them there are none. */
export function defaultStreamState(store: Store, actor: User, form: DefaultChannelForm, now: number): Record<string, unknown> {
  return { realm_default_streams: isGuest(actor) ? [] : defaultChannelList(store, form, now) };
}

/** Default channel groups by name, each with its channels by name in the level's form. */
export function defaultStreamGroupState(store: Store, actor: User, form: DefaultChannelForm, now: number): Record<string, unknown> {
  return { realm_default_stream_groups: isGuest(actor) ? [] : defaultStreamGroupDicts(store, form, now) };
}

/** The groups as non-guests see them in register and in default_stream_groups events. */
export function defaultStreamGroupDicts(store: Store, form: DefaultChannelForm, now: number): unknown[] {
  let activity: ChannelActivity | undefined;
  const groups = [...(store.realm.default_stream_groups ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return groups.map((g) => {
    // Sorted by name in either form, as the real server lists a group's channels.
    const ids = g.streams.map((id) => store.streams.get(id)).filter((s): s is Stream => s !== undefined).sort(byName).map((s) => s.stream_id);
    return { id: g.id, name: g.name, description: g.description, streams: channelsIn(store, ids, form, () => (activity ??= channelActivity(store, now))) };
  });
}
