// The notification bot's messages after a subscribe request: a direct message to each person the
// caller subscribed to existing channels, and (with `announce`) the announcement of the channels
// the request created.
import type { Ctx } from '../context.js';
import type { Stream, User } from '../../store/state.js';
import { postNotification, silentMention } from '../channels/announce.js';
import { sendNotificationBotMessage } from '../messages/send.js';

const link = (name: string) => `#**${name}**`;

function subscribedYouText(actor: User, names: string[]): string {
  const who = silentMention(actor.full_name, actor.user_id);
  if (names.length === 1) return `${who} subscribed you to ${link(names[0])}.`;
  return `${who} subscribed you to the following channels:\n\n${names.map((n) => `* ${link(n)}\n`).join('')}`;
}

/** `added`: per user, the existing channels they were newly subscribed to (created ones are left out). */
export function tellSubscribedUsers(ctx: Ctx, added: Map<User, string[]>): void {
  for (const [user, names] of added) {
    if (user.user_id === ctx.actor.user_id || user.is_bot || !names.length) continue;
    sendNotificationBotMessage(ctx.store, ctx.events, {
      type: 'private', to: [user.user_id], content: subscribedYouText(ctx.actor, [...names].sort()),
    }, ctx.clock.now());
  }
}

export function announceCreatedChannels(ctx: Ctx, created: Stream[]): void {
  const { store, actor } = ctx;
  const target = store.realm.new_stream_announcements_stream_id;
  const channel = target === null ? undefined : store.streams.get(target);
  if (!created.length || !channel || channel.is_archived) return;
  const who = silentMention(actor.full_name, actor.user_id);
  const links = created.map((s) => link(s.name)).join(', ');
  const content = created.length === 1 ? `${who} created a new channel ${links}.` : `${who} created the following channels: ${links}.`;
  postNotification(ctx, channel, 'new channels', content, [actor.user_id]);
}
