// POST /channels/create: checks every parameter and permission first, then creates the channel,
// subscribes the listed users, sends the stream/create and subscription events and, with
// `announce`, has the notification bot announce the channel.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { GroupSettingValue, Stream, TopicsPolicy } from '../../store/state.js';
import { renderMarkdown } from '../render/markdown.js';
import { renderLevel } from '../render/render-level.js';
import { isAdmin, isGuest } from '../users/roles.js';
import { addSubscriptions } from './add-subscriptions.js';
import { streamByName } from './access.js';
import { channelActivity } from './activity.js';
import { metadataAudience } from './audience.js';
import { activeUserIds } from '../users/access.js';
import { announceCreatedChannels } from './announce.js';
import {
  CHANNEL_GROUP_SETTING_NAMES,
  checkGroupSettingValue,
  checkProtectedHistoryTopicGroup,
  defaultGroupSetting,
  type ChannelGroupSetting,
} from './group-settings.js';
import { channelAlreadyExists, checkChannelName, oneLine } from './names.js';
import {
  checkCanCreate,
  checkCanMakeWebPublic,
  checkCanSetTopicsPolicy,
  requireOwner,
  retentionDays,
} from './realm-permissions.js';
import { streamToDict } from './stream-dict.js';
import { invalidFolder } from './folders.js';

/** How a new channel is set up: shared by creating one and by subscribing to one that does not exist yet. */
interface NewChannelOptions {
  announce: boolean;
  invite_only: boolean;
  is_web_public: boolean;
  is_default_stream: boolean;
  folder_id?: number;
  topics_policy: TopicsPolicy;
  default_push_notifications?: boolean;
  history_public_to_subscribers?: boolean;
  message_retention_days?: string | number;
  /** The group settings (can_*_group), by name. */
  [setting: string]: unknown;
}

/** What creating a channel takes: POST /channels/create's parameters, or a channel asked for by subscribing. */
export type NewChannel = NewChannelOptions & { name: string; description: string; subscribers: number[] };

/** The listed users, each an active user of the organization ("Invalid user ID: n" otherwise). */
function checkSubscribers(ctx: Ctx, ids: number[]): number[] {
  for (const id of ids) if (!ctx.store.users.get(id)?.is_active) throw badRequest(`Invalid user ID: ${id}`);
  return [...new Set(ids)];
}

/** A channel every check passed for, ready to be created (nothing is stored yet). */
export interface CheckedChannel {
  row: Omit<Stream, 'stream_id' | 'date_created' | 'creator_id'>;
  subscribers: number[];
  isDefault: boolean;
  announce: boolean;
}

/**
 * Every check of creating the channel, in the real server's order, without changing anything:
 * subscribing to channels that do not exist yet checks them all before creating the first.
 */
export function checkNewChannel(ctx: Ctx, p: NewChannel): CheckedChannel {
  const { store, actor } = ctx;
  if (isGuest(actor)) throw badRequest('Not allowed for guest users');
  const name = checkChannelName(p.name);
  if (streamByName(store, name)) throw channelAlreadyExists(name);
  const subscribers = checkSubscribers(ctx, p.subscribers);
  if (p.folder_id !== undefined && !store.channelFolders.get(p.folder_id)) throw invalidFolder();

  const settings = {} as Record<ChannelGroupSetting, GroupSettingValue>;
  for (const setting of CHANNEL_GROUP_SETTING_NAMES) {
    const given = p[setting] as GroupSettingValue | undefined;
    settings[setting] =
      given === undefined ? defaultGroupSetting(store, setting, actor) : checkGroupSettingValue(store, setting, given);
  }

  checkCanCreate(store, actor, p.invite_only);
  if (p.is_default_stream && !isAdmin(actor)) throw badRequest('Insufficient permission');
  // Administrators only, like making it a default channel (from 507; the parameter is unknown before).
  if (p.default_push_notifications && !isAdmin(actor)) throw badRequest('Insufficient permission');
  if (p.invite_only && p.is_default_stream) throw badRequest('A default channel cannot be private.');
  if (p.is_web_public) {
    if (p.invite_only) throw badRequest('Invalid parameters');
    checkCanMakeWebPublic(store, actor);
  }
  const retention = p.message_retention_days === undefined ? null : retentionDays(p.message_retention_days);
  if (retention !== null) requireOwner(actor);
  if (p.topics_policy !== 'inherit') checkCanSetTopicsPolicy(store, actor);
  // A public channel's history is always public to its subscribers; a private one's defaults to protected.
  const historyPublic = p.invite_only ? (p.history_public_to_subscribers ?? false) : true;
  checkProtectedHistoryTopicGroup(store, p.invite_only, historyPublic, settings.can_create_topic_group);

  const description = oneLine(p.description);
  return {
    row: {
      name,
      description,
      rendered_description: renderMarkdown(store, description, null, renderLevel(ctx.supports), ctx.clock.nowMs()),
      invite_only: p.invite_only,
      is_web_public: p.is_web_public,
      history_public_to_subscribers: historyPublic,
      message_retention_days: retention,
      is_archived: false,
      folder_id: p.folder_id ?? null,
      topics_policy: p.topics_policy,
      is_recently_active: true,
      stream_weekly_traffic: null,
      default_push_notifications: p.default_push_notifications === true,
      ...settings,
    },
    subscribers,
    isDefault: p.is_default_stream,
    announce: p.announce,
  };
}

/** Creates a checked channel: the row, the default-channel entry, the events, the subscriptions, the announcement. */
export function insertChannel(ctx: Ctx, checked: CheckedChannel): Stream {
  const { store, actor } = ctx;
  const { name, description, rendered_description, ...rest } = checked.row;
  const stream: Stream = store.streams.insert({
    stream_id: store.nextId('streams'),
    name,
    description,
    rendered_description,
    date_created: ctx.clock.now(),
    creator_id: actor.user_id,
    ...rest,
  });
  if (checked.isDefault)
    store.updateRealm({ default_stream_ids: [...store.realm.default_stream_ids, stream.stream_id] });

  announceCreation(ctx, stream, checked.subscribers);
  addSubscriptions(ctx, stream, checked.subscribers);
  if (checked.announce) announceCreatedChannels(ctx, [stream]);
  return stream;
}

export function createChannel(ctx: Ctx, p: NewChannel): { id: number } {
  return { id: insertChannel(ctx, checkNewChannel(ctx, p)).stream_id };
}

/**
 * stream/create goes to everyone who may see the channel: all active non-guests for a public
 * channel (everyone for a web-public one), and for a private one the administrators, the holders
 * of the access groups and the subscribers about to be added.
 */
function announceCreation(ctx: Ctx, stream: Stream, subscribers: number[]): void {
  const { store } = ctx;
  const users = stream.is_web_public
    ? activeUserIds(store)
    : [...new Set([...metadataAudience(store, stream), ...(stream.invite_only ? subscribers : [])])];
  const dict = streamToDict(store, stream, channelActivity(store, ctx.clock.now()));
  ctx.events.publish(users, { type: 'stream', op: 'create', streams: [dict] });
}
