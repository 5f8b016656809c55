// The deprecated bulk read operations (POST /mark_all_as_read, /mark_stream_as_read,
// /mark_topic_as_read). Unlike POST /messages/flags they touch only messages the user received
// (their own rows), and the real server announces them differently: marking everything sends
// `all: true` with no IDs (clients reload), marking a channel or topic sends the IDs, and only
// when some changed.
import { badRequest } from '../../errors.js';
import { channelMessages, topicMessagesInOrder, unreadMessages } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { accessStreamContentById } from '../channels/access.js';

const readEvent = (messages: number[], all: boolean) => ({
  type: 'update_message_flags',
  op: 'add',
  operation: 'add',
  flag: 'read',
  messages,
  all,
});

/**
 * Adds `read` to the user's rows of the messages `which` selects among `among` (in ID order; the
 * user's unread messages when absent); returns their IDs.
 */
function markRead(
  { store }: WorldCtx,
  user: User,
  which: (m: Message) => boolean,
  among?: readonly Message[],
): number[] {
  const key = String(user.user_id);
  const changed: number[] = [];
  // Every message to mark is unread: the user's unread list, or the shorter list given. A copy,
  // since marking a message read takes it out of the unread list.
  const unread = unreadMessages(store, user.user_id);
  const walked = among && among.length < unread.length ? among : unread;
  for (const m of [...walked]) {
    const flags = m.flags[key];
    if (!flags || flags.includes('read') || !which(m)) continue;
    store.messages.update(m, { flags: { ...m.flags, [key]: [...flags, 'read'] } });
    changed.push(m.id);
  }
  return changed;
}

export function markAllAsRead(world: WorldCtx, user: User): number {
  const changed = markRead(world, user, () => true);
  world.events.publish([user.user_id], readEvent([], true));
  return changed.length;
}

export interface ChannelRead {
  streamId: number;
  /** Only this topic (compared without case; "" is the empty topic); the whole channel when absent. */
  topic?: string;
}

export function markChannelAsRead(world: WorldCtx, user: User, { streamId, topic }: ChannelRead): number {
  const { store } = world;
  const stream = accessStreamContentById(store, user, streamId);
  const inChannel = (m: Message) => m.type === 'stream' && m.stream_id === stream.stream_id;
  let which = inChannel;
  let among = channelMessages(store, stream.stream_id);
  if (topic !== undefined) {
    const wanted = topic.toLowerCase();
    which = (m) => inChannel(m) && m.topic.toLowerCase() === wanted;
    const key = String(user.user_id);
    among = topicMessagesInOrder(store, stream.stream_id, topic);
    if (!among.some((m) => key in m.flags && which(m))) throw badRequest(`No such topic '${topic}'`);
  }
  const changed = markRead(world, user, which, among);
  if (changed.length) world.events.publish([user.user_id], readEvent(changed, false));
  return changed.length;
}

/** Muting a user: the muter's unread messages from them become read, announced when some did. */
export function markSenderAsRead(world: WorldCtx, user: User, senderId: number): number {
  const changed = markRead(world, user, (m) => m.sender_id === senderId);
  if (changed.length) world.events.publish([user.user_id], readEvent(changed, false));
  return changed.length;
}
