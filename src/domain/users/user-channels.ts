// GET /users/{user_id}/channels (FL 440): the channels a user is subscribed to, as far as the
// caller may see who is subscribed (metadata access, as for GET /streams/{id}/members).
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import { hasMetadataAccess, isSubscribed } from '../channels/access.js';

export function userChannels(ctx: Ctx, userId: number): { subscribed_channel_ids: number[] } {
  const { store, actor } = ctx;
  const user = store.users.get(userId);
  if (!user || user.is_system_bot) throw badRequest('No such user');
  const ids: number[] = [];
  for (const stream of store.streams.all()) {
    if (stream.is_archived || !isSubscribed(store, user.user_id, stream.stream_id)) continue;
    if (hasMetadataAccess(store, actor, stream)) ids.push(stream.stream_id);
  }
  return { subscribed_channel_ids: ids.sort((a, b) => a - b) };
}
