// GET /streams/{stream_id}/members: a channel's subscribers, for anyone who may see the channel's
// metadata (the real server does not require content access here).
import type { WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { hasMetadataAccess, invalidChannelId, subscriberIds } from './access.js';

export function channelSubscribers(
  world: WorldCtx,
  actor: User,
  input: { stream_id: number },
): { subscribers: number[] } {
  const { store } = world;
  const stream = store.streams.get(input.stream_id);
  if (!stream || stream.is_archived || !hasMetadataAccess(store, actor, stream)) throw invalidChannelId();
  return { subscribers: subscriberIds(store, stream.stream_id).sort((a, b) => a - b) };
}
