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
  // Before the renaming of FL 255 (behaviour channel_wording) the server said "stream".
  const word = ctx.supports('channel_wording') ? 'channel' : 'stream';
  const content =
    created.length === 1
      ? `${who} created a new ${word} ${links}.`
      : `${who} created the following ${word}s: ${links}.`;
  sendNotificationBotMessage(ctx, {
    type: 'stream',
    to: channel.stream_id,
    topic: `new ${word}s`,
    content,
    readBy: [actor.user_id],
  });
}
