// The state POST /register returns next to the new queue: the server basics always, then each
// section the client asked for with fetch_event_types (every section when it asked for none).
// Section names follow the real server's: the event type whose changes keep the section current,
// with its conditions (capabilities, slim_presence, ...). Fields newer than the request's feature
// level are left out afterwards, from the description (contract/shape.ts).
import type { Ctx, TopicShown } from '../context.js';
import { alwaysSent, serverBasics } from './server-basics.js';
import { alertWordState } from '../alert-words/register-state.js';
import { embeddedBotState, incomingWebhookBotState, realmBotState } from '../bots/register-state.js';
import {
  channelFolderState,
  defaultStreamGroupState,
  defaultStreamState,
  streamsState,
} from '../channels/register-state.js';
import { draftState } from '../drafts/register-state.js';
import { userGroupState } from '../groups/register-state.js';
import {
  maxMessageIdState,
  recentConversationState,
  starredState,
  stopWordState,
  unreadState,
} from '../messages/register-state.js';
import { mutedUserState } from '../muted-users/register-state.js';
import { presenceState } from '../presence/register-state.js';
import { deviceState, pushAccountState } from '../push/devices.js';
import {
  customProfileFieldState,
  linkifierState,
  playgroundState,
  realmDomainState,
  realmEmojiState,
  realmState,
} from '../realm/register-state.js';
import { reminderState } from '../reminders/register-state.js';
import { savedSnippetState } from '../saved-snippets/register-state.js';
import { scheduledMessageState } from '../scheduled-messages/register-state.js';
import { subscriptionState } from '../subscriptions/register-state.js';
import { mutedTopicState, userTopicState } from '../user-topics/register-state.js';
import { realmUserState } from '../users/register-state.js';
import {
  legacyDisplaySettingsState,
  legacyNotificationSettingsState,
  realmUserDefaultsState,
  userSettingsState,
  userStatusState,
} from '../users/settings-state.js';
import { realmPermissionState } from '../realm/permission-state.js';
import { navigationViewState } from '../navigation-views/register-state.js';

export interface StateRequest {
  /** null: every section. */
  fetchEventTypes: ReadonlySet<string> | null;
  capabilities: Readonly<Record<string, boolean>>;
  clientGravatar: boolean;
  includeSubscribers: boolean | 'partial';
  slimPresence?: boolean;
  presenceHistoryLimitDays?: number;
}

/** The basics sent whatever the client asked for (the others are the realm section's). */
const ALWAYS_SENT: ReadonlySet<string> = new Set([
  'zulip_feature_level',
  'zulip_version',
  'zulip_merge_base',
  'server_report_message_types',
]);

export function initialState(ctx: Ctx, req: StateRequest): Record<string, unknown> {
  const { store, actor } = ctx;
  const all = req.fetchEventTypes === null;
  // One or two names, no rest parameter: it is asked fifty times a register.
  const fetched = req.fetchEventTypes;
  const want = (type: string, alias?: string) =>
    fetched === null || fetched.has(type) || (alias !== undefined && fetched.has(alias));
  const caps = req.capabilities;
  const displayName = ctx.server.emptyTopicDisplayName;
  const shown: TopicShown = caps.empty_topic_name ? (t) => t : (t) => (t === '' ? displayName : t);
  const users = {
    clientGravatar: req.clientGravatar,
    avatarOptional: !!caps.user_avatar_url_field_optional,
    now: ctx.clock.now(),
    // Before feature level 163 the organization's email_address_visibility decides for everyone.
    organization: ctx.supports('email_visibility_per_user') ? undefined : store.realm,
  };
  const out: Record<string, unknown> = {};
  const add = (part: Record<string, unknown>) => Object.assign(out, part);
  if (want('alert_words')) add(alertWordState(actor));
  if (want('custom_profile_fields')) add(customProfileFieldState(store));
  if (want('onboarding_steps')) add({ onboarding_steps: [], navigation_tour_video_url: null });
  if (want('message')) add(maxMessageIdState(store, actor));
  if (want('drafts')) add(draftState(store, actor, shown));
  if (want('scheduled_messages')) add(scheduledMessageState(store, actor, shown));
  // Clients that name user_topic get no muted_topics: it only serves servers without user_topic.
  if (want('muted_topics') && (all || !want('user_topic'))) add(mutedTopicState(store, actor, shown));
  if (want('muted_users')) add(mutedUserState(actor));
  if (want('presence')) {
    add(
      presenceState(store, {
        slim: !!req.slimPresence,
        historyLimitDays: req.presenceHistoryLimitDays,
        nowMs: ctx.clock.nowMs(),
        organization: users.organization !== undefined,
      }),
    );
  }
  if (want('realm')) add({ ...realmState(store, ctx.server.rules), ...realmPermissionState(ctx) });
  if (want('realm_user_settings_defaults')) add(realmUserDefaultsState(store));
  if (want('realm_billing')) add({ realm_billing: { has_pending_sponsorship_request: false } });
  if (want('realm_domains')) add(realmDomainState(store));
  if (want('realm_emoji')) add(realmEmojiState(store));
  if (want('realm_linkifiers')) add(linkifierState(store, !!caps.linkifier_url_template));
  if (want('realm_filters')) add({ realm_filters: [] });
  if (want('realm_playgrounds')) add(playgroundState(store));
  if (want('realm_user_groups', 'user_group')) add(userGroupState(store, !!caps.include_deactivated_groups));
  if (want('channel_folders', 'channel_folder')) add(channelFolderState(store));
  if (want('realm_user')) add(realmUserState(store, actor, users));
  if (want('realm_bot')) add(realmBotState(store, actor));
  if (want('realm_embedded_bots')) add(embeddedBotState());
  if (want('realm_incoming_webhook_bots')) add(incomingWebhookBotState(ctx.supports('webhook_url_options')));
  if (want('recent_private_conversations')) add(recentConversationState(store, actor));
  if (want('subscription')) add(subscriptionState(ctx, req.includeSubscribers, !!caps.archived_channels));
  if (want('update_message_flags') && want('message')) add(unreadState(store, actor, shown));
  if (want('starred_messages')) add(starredState(store, actor));
  if (want('stream')) add(streamsState(ctx));
  if (want('default_streams'))
    add(defaultStreamState(store, actor, ctx.variantOf('RegisterState', 'realm_default_streams'), ctx.clock.now()));
  if (want('default_stream_groups'))
    add(defaultStreamGroupState(store, actor, ctx.variantOf('DefaultChannelGroup', 'streams'), ctx.clock.now()));
  if (want('stop_words')) add(stopWordState());
  if (want('update_display_settings') && !caps.user_settings_object) add(legacyDisplaySettingsState(actor));
  if (want('update_global_notifications') && !caps.user_settings_object) add(legacyNotificationSettingsState(actor));
  if (want('user_settings')) add(userSettingsState(actor));
  if (want('user_status')) add(userStatusState(store));
  if (want('user_topic')) add(userTopicState(store, actor, shown));
  if (want('video_calls')) add({ has_zoom_token: false });
  if (want('giphy')) add({ giphy_api_key: '' });
  if (want('tenor')) add({ tenor_api_key: '' });
  if (want('reminders')) add(reminderState(store, actor));
  if (want('saved_snippets')) add(savedSnippetState(store, actor));
  if (want('navigation_view')) add(navigationViewState(store, actor));
  if (want('device')) add(deviceState(store, actor));
  if (want('push_device')) add(pushAccountState(store, actor));
  // The basics last, so that no section can shadow them. (Object.assign: a second spread into
  // one literal took V8 a slow path, 8 µs here, most of a register's own work.) Only the version
  // and the report types are sent whatever the client asked for; the limits and the rest are the
  // realm section's (the real server's description: present if `realm` is fetched), so all the
  // basics are made only for it: a client asking for a few types (a bot, a bench loop registering
  // for messages) gets the four from the server's facts directly.
  if (!want('realm')) return Object.assign(out, alwaysSent(ctx.server));
  const basics = serverBasics(ctx);
  // The rest of the basics copied key by key (an object rest took V8 a slow path, about 5 µs, on
  // every register).
  for (const key in basics) if (!ALWAYS_SENT.has(key)) out[key] = basics[key as keyof typeof basics];
  const { zulip_feature_level, zulip_version, zulip_merge_base, server_report_message_types } = basics;
  return Object.assign(
    out,
    { zulip_feature_level, zulip_version, zulip_merge_base },
    server_report_message_types && { server_report_message_types },
  );
}
