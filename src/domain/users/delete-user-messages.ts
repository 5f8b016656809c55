// The message-deleting actions of a deactivation: a user's messages in public channels, in
// private channels, or in direct messages. Those who had the messages get delete_message events,
// one per channel topic for channel messages and one for the direct messages, and the new
// first_message_id of a channel whose oldest message went; uploads forget them as after any
// deletion. (Not through messages/delete.ts's deleteMessages: that one tells every subscriber of
// a channel with public history, as the newest real server does, where this path tells only
// those who had the messages; a test holds this path's audience.)
import type { Ctx } from '../context.js';
import type { Message, User } from '../../store/state.js';
import { tellFirstMessageId } from '../channels/first-message.js';
import { forgetDeletedMessages } from '../uploads/links.js';

export interface MessageKinds {
  publicChannels: boolean;
  privateChannels: boolean;
  direct: boolean;
}

function recipientsOf(messages: Message[]): number[] {
  const ids = new Set<number>();
  for (const m of messages) {
    for (const id of Object.keys(m.flags)) ids.add(Number(id));
    for (const id of m.recipient_ids) ids.add(id);
  }
  return [...ids];
}

export function deleteMessagesSentBy(ctx: Ctx, user: User, kinds: MessageKinds): void {
  const { store } = ctx;
  if (!kinds.publicChannels && !kinds.privateChannels && !kinds.direct) return;
  const chosen = (m: Message): boolean => {
    if (m.sender_id !== user.user_id) return false;
    if (m.type === 'private') return kinds.direct;
    const invite = store.streams.get(m.stream_id!)?.invite_only ?? false;
    return invite ? kinds.privateChannels : kinds.publicChannels;
  };
  // Each channel's oldest message before, to tell its new first_message_id if it goes.
  const firstBefore = new Map<number, number | null>();
  for (const m of store.messages.all()) {
    if (m.stream_id !== null && !firstBefore.has(m.stream_id)) firstBefore.set(m.stream_id, m.id);
  }
  const removed = store.messages.removeWhere(chosen);
  const removedIds = new Set(removed.map((m) => m.id));
  forgetDeletedMessages(ctx, removedIds);

  const byTopic = new Map<string, Message[]>();
  const direct: Message[] = [];
  for (const m of removed) {
    if (m.type === 'private') {
      direct.push(m);
      continue;
    }
    const key = `${m.stream_id}\u0000${m.topic}`;
    byTopic.set(key, [...(byTopic.get(key) ?? []), m]);
  }
  for (const [streamId, before] of firstBefore) {
    const stream = store.streams.get(streamId);
    if (!stream || before === null || !removedIds.has(before)) continue;
    tellFirstMessageId(ctx, stream, before, recipientsOf(removed.filter((m) => m.stream_id === streamId)));
  }
  for (const group of byTopic.values()) {
    ctx.events.publish(recipientsOf(group), {
      type: 'delete_message',
      message_type: 'stream',
      message_ids: group.map((m) => m.id),
      stream_id: group[0].stream_id,
      topic: group[0].topic,
    });
  }
  if (direct.length) {
    ctx.events.publish(recipientsOf(direct), {
      type: 'delete_message',
      message_type: 'private',
      message_ids: direct.map((m) => m.id),
    });
  }
}
