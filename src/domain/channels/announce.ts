// Messages the notification bot posts in a channel (the new-channel announcement). The row is
// written directly, with the flags each recipient gets, and a `message` event goes to every
// recipient; the messaging work owns ordinary sends.
import type { Ctx } from '../context.js';
import type { Message, Stream } from '../../store/state.js';
import { renderMarkdown } from '../render/markdown.js';
import { subscriberIds } from './access.js';

/** The syntax of a mention that does not notify, as the real server writes it in notifications. */
export const silentMention = (fullName: string, userId: number) => `@_**${fullName}|${userId}**`;

function messageDict(ctx: Ctx, m: Message, stream: Stream): Record<string, unknown> {
  const sender = ctx.store.users.get(m.sender_id)!;
  return {
    id: m.id,
    sender_id: sender.user_id,
    sender_full_name: sender.full_name,
    sender_email: sender.email,
    // The state keeps no subdomain: the organization is the server's root one.
    sender_realm_str: '',
    type: 'stream',
    stream_id: stream.stream_id,
    display_recipient: stream.name,
    subject: m.topic,
    topic_links: [],
    content: m.rendered_content,
    content_type: 'text/html',
    timestamp: m.timestamp,
    client: m.client,
    is_me_message: false,
    reactions: [],
    submessages: [],
    avatar_url: null,
  };
}

/** Posts `content` as the notification bot; `readBy` get the message already read. */
function postNotification(ctx: Ctx, stream: Stream, topic: string, content: string, readBy: number[] = []): Message {
  const { store } = ctx;
  const botId = store.realm.notification_bot_id;
  const flags: Record<string, string[]> = {};
  for (const userId of [...subscriberIds(store, stream.stream_id), botId]) {
    flags[String(userId)] = userId === botId || readBy.includes(userId) ? ['read'] : [];
  }
  const message: Message = {
    id: store.nextId('messages'), sender_id: botId, type: 'stream', stream_id: stream.stream_id, topic,
    recipient_ids: [], content, rendered_content: renderMarkdown(store, content), timestamp: ctx.clock.now(),
    client: 'Internal', flags, reactions: [], last_edit_timestamp: null,
  };
  store.messages.insert(message);

  const event = { type: 'message', message: messageDict(ctx, message, stream) };
  const read = Object.keys(flags).filter((id) => flags[id].length).map(Number);
  const unread = Object.keys(flags).filter((id) => !flags[id].length).map(Number);
  if (read.length) ctx.events.publish(read, { ...event, flags: ['read'] });
  if (unread.length) ctx.events.publish(unread, { ...event, flags: [] });
  return message;
}

/** The notification bot's announcement of new channels in the organization's new-channel announcements channel. */
export function announceCreatedChannels(ctx: Ctx, created: Stream[]): void {
  const { store, actor } = ctx;
  const target = store.realm.new_stream_announcements_stream_id;
  const channel = target === null ? undefined : store.streams.get(target);
  if (!created.length || !channel || channel.is_archived) return;
  const who = silentMention(actor.full_name, actor.user_id);
  const links = created.map((s) => `#**${s.name}**`).join(', ');
  const content = created.length === 1 ? `${who} created a new channel ${links}.` : `${who} created the following channels: ${links}.`;
  postNotification(ctx, channel, 'new channels', content, [actor.user_id]);
}
