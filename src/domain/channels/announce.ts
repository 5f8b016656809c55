// The notification bot's announcement of new channels in the organization's new-channel
// announcements channel, sent through the ordinary send path like every bot notice.
import type { Ctx } from '../context.js';
import type { Stream } from '../../store/state.js';
import { silentMention } from '../render/mentions.js';
import { sendNotificationBotMessage } from '../messages/send.js';

/** Announces `created`; the creator starts with the announcement read. */
export function announceCreatedChannels(ctx: Ctx, created: Stream[]): void {
  const { store, actor } = ctx;
  const target = store.realm.new_stream_announcements_stream_id;
  const channel = target === null ? undefined : store.streams.get(target);
  if (!created.length || !channel || channel.is_archived) return;
  const who = silentMention(actor);
  const links = created.map((s) => `#**${s.name}**`).join(', ');
  const content =
    created.length === 1
      ? `${who} created a new channel ${links}.`
      : `${who} created the following channels: ${links}.`;
  sendNotificationBotMessage(ctx, {
    type: 'stream',
    to: channel.stream_id,
    topic: 'new channels',
    content,
    readBy: [actor.user_id],
  });
}
