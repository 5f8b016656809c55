// The state POST /register returns next to the new queue: the server basics always, then each
// section the client asked for with fetch_event_types (every section when it asked for none).
// Section names follow the real server's: the event type whose changes keep the section current.
import type { Ctx } from '../context.js';
import { channelFolderState, linkifierState, realmEmojiState, realmState, serverBasics, userGroupState } from './state-realm.js';
import { realmBotState, realmUserState } from './state-users.js';
import {
  draftState, maxMessageIdState, reminderState, savedSnippetState, scheduledMessageState, userSettingsState,
  userStatusState, userTopicState, type TopicShown,
} from './state-personal.js';
import { subscriptionState } from './state-subscriptions.js';

export interface StateRequest {
  /** null: every section. */
  fetchEventTypes: ReadonlySet<string> | null;
  capabilities: Readonly<Record<string, boolean>>;
  clientGravatar: boolean;
  includeSubscribers: boolean | 'partial';
}

export function initialState(ctx: Ctx, req: StateRequest): Record<string, unknown> {
  const { store, actor } = ctx;
  const want = (...types: string[]) => req.fetchEventTypes === null || types.some((t) => req.fetchEventTypes!.has(t));
  const displayName = ctx.server.emptyTopicDisplayName;
  const shown: TopicShown = req.capabilities.empty_topic_name ? (t) => t : (t) => (t === '' ? displayName : t);
  const users = { clientGravatar: req.clientGravatar };
  const out: Record<string, unknown> = {};
  if (want('message')) Object.assign(out, maxMessageIdState(store, actor));
  if (want('realm')) Object.assign(out, realmState(store));
  if (want('realm_user')) Object.assign(out, realmUserState(store, actor, users));
  if (want('realm_bot')) Object.assign(out, realmBotState(store, actor, users));
  if (want('realm_emoji')) Object.assign(out, realmEmojiState(store));
  if (want('realm_linkifiers')) Object.assign(out, linkifierState(store));
  if (want('realm_user_groups', 'user_group')) Object.assign(out, userGroupState(store, !!req.capabilities.include_deactivated_groups));
  if (want('channel_folders', 'channel_folder')) Object.assign(out, channelFolderState(store));
  if (want('subscription')) Object.assign(out, subscriptionState(ctx, req.includeSubscribers, !!req.capabilities.archived_channels));
  if (want('user_settings')) Object.assign(out, userSettingsState(actor));
  if (want('user_topic')) Object.assign(out, userTopicState(store, actor, shown));
  if (want('user_status')) Object.assign(out, userStatusState(store));
  if (want('scheduled_messages')) Object.assign(out, scheduledMessageState(store, actor, shown));
  if (want('reminders')) Object.assign(out, reminderState(store, actor));
  if (want('saved_snippets')) Object.assign(out, savedSnippetState(store, actor));
  if (want('drafts')) Object.assign(out, draftState(store, actor, shown));
  // The basics last, so that no section can shadow them. (Object.assign: a second spread into
  // one literal took V8 a slow path, 8 µs here, most of a register's own work.)
  return Object.assign(out, serverBasics(ctx));
}
