// Reading channels: GET /streams (the sources a client asks for, sorted by name),
// GET /streams/{stream_id} and GET /get_stream_id. Channels are shown as in stream events.
import { badRequest } from '../../errors.js';
import type { Ctx, ParamsOf } from '../context.js';
import type { Stream } from '../../store/state.js';
import { isGuest } from '../users/roles.js';
import { hasContentAccess, hasMetadataAccess, invalidChannelId, isSubscribed, streamByName } from './access.js';
import { channelActivity } from './activity.js';
import { streamToDict } from './stream-dict.js';

/** The operation's parameters, typed from the description. */
type GetStreamsParams = ParamsOf<'get-streams'>;

/** Whether one of the requested sources (other than include_all) yields the channel. */
function inRequestedSources(ctx: Ctx, s: Stream, p: GetStreamsParams): boolean {
  const { store, actor } = ctx;
  if (p.include_can_access_content) {
    // Content access already covers the subscribed, public and web-public sources.
    if (hasContentAccess(store, actor, s)) return true;
  } else {
    if (p.include_subscribed && isSubscribed(store, actor.user_id, s.stream_id)) return true;
    // Guests cannot browse public channels.
    if (p.include_public && !isGuest(actor) && !s.invite_only) return true;
    if (p.include_web_public && s.is_web_public) return true;
  }
  // Only bots have an owner whose subscriptions count.
  const owner = actor.is_bot ? actor.bot_owner_id : null;
  return p.include_owner_subscribed && owner !== null && isSubscribed(store, owner, s.stream_id);
}

export function listStreams(ctx: Ctx, p: GetStreamsParams): { streams: Record<string, unknown>[] } {
  const { store, actor } = ctx;
  const all = p.include_all || p.include_all_active;
  const chosen = store.streams
    .filter((s) => !(p.exclude_archived && s.is_archived))
    .filter((s) => (all ? hasMetadataAccess(store, actor, s) : inRequestedSources(ctx, s, p)))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const activity = channelActivity(store, ctx.clock.now());
  return {
    streams: chosen.map((s) => {
      const dict = streamToDict(store, s, activity);
      if (p.include_default) dict.is_default = store.realm.default_stream_ids.includes(s.stream_id);
      return dict;
    }),
  };
}

/** An active channel whose metadata the caller can see; "Invalid channel ID" for anything else. */
export function getStreamById(ctx: Ctx, streamId: number): { stream: Record<string, unknown> } {
  const { store, actor } = ctx;
  const stream = store.streams.get(streamId);
  if (!stream || stream.is_archived || !hasMetadataAccess(store, actor, stream)) throw invalidChannelId();
  return { stream: streamToDict(store, stream, channelActivity(store, ctx.clock.now())) };
}

/** The real server's access_stream_by_name: an active channel the caller may read. */
export function getStreamId(ctx: Ctx, name: string): { stream_id: number } {
  const { store, actor } = ctx;
  const stream = streamByName(store, name);
  if (!stream || stream.is_archived || !hasContentAccess(store, actor, stream)) {
    throw badRequest(`Invalid channel name '${name}'`);
  }
  return { stream_id: stream.stream_id };
}
