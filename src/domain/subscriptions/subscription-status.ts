// GET /users/{user_id}/subscriptions/{stream_id}: whether an active person is subscribed. The
// caller must be able to read the channel, except that administrators may ask about any private
// channel (the real server's allow_realm_admin).
import type { WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { hasContentAccess, invalidChannelId, isSubscribed } from '../channels/access.js';
import { targetUser } from '../users/administer.js';
import { isAdmin } from '../users/roles.js';

export function subscriptionStatus(
  world: WorldCtx,
  actor: User,
  input: { user_id: number; stream_id: number },
): { is_subscribed: boolean } {
  const { store } = world;
  const user = targetUser(store, actor, input.user_id, {});
  const stream = store.streams.get(input.stream_id);
  const visible =
    stream && !stream.is_archived && (hasContentAccess(store, actor, stream) || (stream.invite_only && isAdmin(actor)));
  if (!visible) throw invalidChannelId();
  return { is_subscribed: isSubscribed(store, user.user_id, stream.stream_id) };
}
