// Who may see and use a channel. Public channels are open to everyone but guests; private ones
// to their subscribers and to the groups that may subscribe or add subscribers. Administrators see
// every channel's metadata but not a private channel's content.
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { subscriptionKey } from '../../store/store.js';
import type { Stream, User } from '../../store/state.js';
import { holdsSetting } from '../group-settings/membership.js';
import { isAdmin, isGuest } from '../users/roles.js';

export const invalidChannelId = () => badRequest('Invalid channel ID');

export function isSubscribed(store: Store, userId: number, streamId: number): boolean {
  return store.subscriptions.has(subscriptionKey(userId, streamId));
}

export function subscriberIds(store: Store, streamId: number): number[] {
  const out: number[] = [];
  for (const s of store.subscriptions.group('stream', streamId)) {
    if (store.users.get(s.user_id)?.is_active) out.push(s.user_id);
  }
  return out;
}

/** May read the channel's messages (and is allowed to know it exists). */
export function hasContentAccess(store: Store, user: User, stream: Stream): boolean {
  // A public channel is open to every member: no subscription lookup (a key made and hashed) for
  // them, which an audience of a public channel asked for every user.
  if (!stream.invite_only && !isGuest(user)) return true;
  if (isSubscribed(store, user.user_id, stream.stream_id)) return true;
  if (stream.invite_only) {
    return (
      holdsSetting(store, stream.can_subscribe_group, user.user_id) ||
      holdsSetting(store, stream.can_add_subscribers_group, user.user_id)
    );
  }
  if (isGuest(user)) return stream.is_web_public;
  return true;
}

/** May see the channel's name, description and settings. */
export function hasMetadataAccess(store: Store, user: User, stream: Stream): boolean {
  if (hasContentAccess(store, user, stream)) return true;
  if (!stream.invite_only) return false;
  return isAdmin(user) || holdsSetting(store, stream.can_administer_channel_group, user.user_id);
}

/**
 * Organization administrators act as if they were in can_administer_channel_group. (What an
 * administrator who is not subscribed to a private channel may not do is decided by content
 * access, which changes of privacy and of most group settings also require.) Guests never hold
 * the setting.
 */
export function canAdministerChannel(store: Store, user: User, stream: Stream): boolean {
  if (isAdmin(user)) return true;
  if (isGuest(user)) return false;
  return holdsSetting(store, stream.can_administer_channel_group, user.user_id);
}

export function streamByName(store: Store, name: string): Stream | undefined {
  return store.streams.by('name', name.toLowerCase());
}

/**
 * The channel, if it is active and the user may read its content (the real server's
 * access_stream_by_id); "Invalid channel ID" otherwise, so that the two cases look the same.
 */
export function accessStreamContentById(store: Store, user: User, streamId: number): Stream {
  const stream = store.streams.get(streamId);
  if (!stream || stream.is_archived || !hasContentAccess(store, user, stream)) throw invalidChannelId();
  return stream;
}
