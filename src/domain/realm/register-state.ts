// The organization's sections of the registration state: `realm` (the organization's settings
// and the server's configuration), its custom emoji, linkifiers, domains, playgrounds and custom
// profile fields.
import { PROFILE_FIELD_TYPES } from './profile-field-types.js';
import { domainsForApi } from './domains.js';
import type { Store } from '../../store/store.js';
import type { Realm } from '../../store/state.js';
import { createHash } from 'node:crypto';
import { serverSettingsState } from './server-settings-state.js';
import { missingNewerSettings } from './newer-settings.js';
import { organizationEmailVisibility } from '../users/email-visibility.js';
import type { ServerRules } from '../server-rules.js';

/** Realm fields reported as realm_<name>. */
const REALM_FIELDS: Array<keyof Realm> = [
  'name',
  'description',
  'date_created',
  'default_language',
  'message_retention_days',
  'enable_spectator_access',
  'waiting_period_threshold',
  'allow_message_editing',
  'message_content_edit_limit_seconds',
  'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
  'push_notifications_enabled',
  'url',
  'can_mention_many_users_group',
  'can_create_public_channel_group',
  'can_create_private_channel_group',
  'can_create_web_public_channel_group',
  'can_add_subscribers_group',
  'can_manage_all_groups',
  'can_create_groups',
  'can_create_bots_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_between_channels_group',
  'can_move_messages_between_topics_group',
  'can_resolve_topics_group',
  'direct_message_permission_group',
  'direct_message_initiator_group',
];
/** Channel settings whose "none" the API writes as -1. */
const CHANNEL_ID_FIELDS = [
  'new_stream_announcements_stream_id',
  'signup_announcements_stream_id',
  'zulip_update_announcements_stream_id',
];

const gravatar = (text: string) =>
  `https://secure.gravatar.com/avatar/${createHash('md5').update(text).digest('hex')}?d=identicon`;

/** The `realm` section: the organization's settings and the server's own configuration. */
export function realmState(store: Store, rules: ServerRules): Record<string, unknown> {
  const realm = store.realm;
  const shown = realm.shown_settings ?? {};
  const out: Record<string, unknown> = {};
  for (const f of REALM_FIELDS) if (realm[f] !== undefined) out[`realm_${f}`] = structuredClone(realm[f]);
  for (const [name, value] of Object.entries({ ...shown, ...missingNewerSettings(store) })) {
    if (!SERVER_DERIVED.has(name)) out[`realm_${name}`] = structuredClone(value);
  }
  // giphy_rating kept its stored name; from FL 453 it is shown as gif_rating_policy (the shaper
  // keeps the name of the request's level).
  out.realm_gif_rating_policy = out.realm_giphy_rating;
  for (const f of CHANNEL_ID_FIELDS) {
    const id = (realm as unknown as Record<string, unknown>)[f] ?? shown[f];
    out[`realm_${f}`] =
      typeof id === 'number' && store.streams.get(id) && !store.streams.get(id)!.is_archived ? id : -1;
  }
  out.realm_uri = realm.url;
  out.realm_allow_edit_history = shown.message_edit_history_visibility_policy !== 'none';
  out.realm_icon_url =
    shown.icon_source === 'U' ? `${realm.url}/user_avatars/${realm.id}/realm/icon.png` : gravatar(String(realm.id));
  out.realm_logo_url = `${realm.url}/static/images/logo/zulip-org-logo.svg?version=0`;
  out.realm_night_logo_url = out.realm_logo_url;
  out.realm_bot_domain = shown.bot_domain ?? new URL(realm.url).hostname;
  out.realm_authentication_methods = {
    Email: { enabled: true, available: true },
    GitHub: { enabled: false, available: true },
    Google: { enabled: false, available: true },
  };
  out.realm_email_auth_enabled = true;
  // The organization-wide setting of servers before feature level 163 (the shaper drops it from 163).
  out.realm_email_address_visibility = organizationEmailVisibility(realm);
  out.realm_password_auth_enabled = true;
  out.realm_digest_emails_enabled = !!shown.digest_emails_enabled;
  // The plan "limited" is Zulip Cloud's free plan.
  out.zulip_plan_is_not_limited = shown.plan_type !== 2;
  Object.assign(out, serverSettingsState(realm.url, rules));
  out.server_web_public_streams_enabled = realm.web_public_streams_enabled;
  return out;
}

/** shown_settings entries that feed a computed field instead of being shown as they are. */
const SERVER_DERIVED = new Set(['bot_domain', 'zulip_update_announcements_stream_id', 'digest_emails_enabled']);

export function realmEmojiState(store: Store): Record<string, unknown> {
  const emoji: Record<string, unknown> = {};
  for (const e of store.realmEmoji.all()) {
    emoji[String(e.id)] = {
      id: String(e.id),
      name: e.name,
      source_url: e.source_url,
      deactivated: e.deactivated,
      author_id: e.author_id,
    };
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

export function realmDomainState(store: Store): Record<string, unknown> {
  return { realm_domains: domainsForApi(store) };
}

export function playgroundState(store: Store): Record<string, unknown> {
  return { realm_playgrounds: (store.realm.playgrounds ?? []).map((p) => ({ ...p })) };
}

/** Clients without the pronouns type get pronouns fields as short text, as from the real server. */
export function customProfileFieldState(store: Store): Record<string, unknown> {
  const fields = [...(store.realm.custom_profile_fields ?? [])].sort((a, b) => a.order - b.order);
  return {
    custom_profile_fields: fields.map((f) => {
      const dict: Record<string, unknown> = {
        id: f.id,
        name: f.name,
        type: f.type,
        hint: f.hint,
        field_data: f.field_data,
        order: f.order,
        required: f.required,
        editable_by_user: f.editable_by_user,
      };
      // The real server names the flag only when it is set.
      if (f.display_in_profile_summary) dict.display_in_profile_summary = true;
      return dict;
    }),
    custom_profile_field_types: structuredClone(PROFILE_FIELD_TYPES),
  };
}
