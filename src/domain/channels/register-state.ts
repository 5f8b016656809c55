// The channels' sections of the registration state: `streams` (the channels the user may see,
// as GET /streams lists them for the real server's register), `channel_folders`, and the default
// channels and channel groups, in the form of the request's (or the queue's) level.
import type { Ctx } from '../context.js';
import type { Store } from '../../store/store.js';
import type { Stream, User } from '../../store/state.js';
import { isAdmin, isGuest } from '../users/roles.js';
import { listStreams } from './list-streams.js';
import { channelActivity, type ChannelActivity } from './activity.js';
import { streamToDict } from './stream-dict.js';

/** Public and web-public channels and the user's own; every active channel for administrators. */
export function streamsState(ctx: Ctx): Record<string, unknown> {
  const { streams } = listStreams(ctx, {
    include_public: true,
    include_web_public: true,
    include_subscribed: true,
    exclude_archived: true,
    include_all: false,
    include_all_active: isAdmin(ctx.actor),
    include_default: false,
    include_owner_subscribed: false,
    include_can_access_content: false,
  });
  return { streams };
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
function channelsIn(
  store: Store,
  ids: readonly number[],
  form: DefaultChannelForm,
  activity: () => ChannelActivity,
): unknown[] {
  if (form !== 'channels') return [...ids];
  const streams = ids
    .map((id) => store.streams.get(id))
    .filter((s): s is Stream => s !== undefined)
    .sort(byName);
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
export function defaultStreamState(
  store: Store,
  actor: User,
  form: DefaultChannelForm,
  now: number,
): Record<string, unknown> {
  return { realm_default_streams: isGuest(actor) ? [] : defaultChannelList(store, form, now) };
}

/** Default channel groups by name, each with its channels by name in the level's form. */
export function defaultStreamGroupState(
  store: Store,
  actor: User,
  form: DefaultChannelForm,
  now: number,
): Record<string, unknown> {
  return { realm_default_stream_groups: isGuest(actor) ? [] : defaultStreamGroupDicts(store, form, now) };
}

/** The groups as non-guests see them in register and in default_stream_groups events. */
export function defaultStreamGroupDicts(store: Store, form: DefaultChannelForm, now: number): unknown[] {
  let activity: ChannelActivity | undefined;
  const groups = [...(store.realm.default_stream_groups ?? [])].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  return groups.map((g) => {
    // Sorted by name in either form, as the real server lists a group's channels.
    const ids = g.streams
      .map((id) => store.streams.get(id))
      .filter((s): s is Stream => s !== undefined)
      .sort(byName)
      .map((s) => s.stream_id);
    return {
      id: g.id,
      name: g.name,
      description: g.description,
      streams: channelsIn(store, ids, form, () => (activity ??= channelActivity(store, now))),
    };
  });
}
