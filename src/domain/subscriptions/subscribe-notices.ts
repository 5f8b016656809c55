// The notification bot's direct message to each person the caller subscribed to existing
// channels (the announcement of created channels is channels/announce.ts's).
import type { Ctx } from '../context.js';
import type { User } from '../../store/state.js';
import { silentMention } from '../render/mentions.js';
import { sendNotificationBotMessage } from '../messages/send.js';

const link = (name: string) => `#**${name}**`;

/** Before the renaming of FL 255 (behaviour channel_wording) the notice said "the stream" and "streams". */
function subscribedYouText(actor: User, names: string[], channelWording: boolean): string {
  const who = silentMention(actor);
  if (names.length === 1) return `${who} subscribed you to ${channelWording ? '' : 'the stream '}${link(names[0])}.`;
  const list = names.map((n) => `* ${link(n)}\n`).join('');
  return `${who} subscribed you to the following ${channelWording ? 'channels' : 'streams'}:\n\n${list}`;
}

/** `added`: per user, the existing channels they were newly subscribed to (created ones are left out). */
export function tellSubscribedUsers(ctx: Ctx, added: Map<User, string[]>): void {
  for (const [user, names] of added) {
    if (user.user_id === ctx.actor.user_id || user.is_bot || !names.length) continue;
    sendNotificationBotMessage(ctx, {
      type: 'private',
      to: [user.user_id],
      content: subscribedYouText(ctx.actor, [...names].sort(), ctx.supports('channel_wording')),
    });
  }
}
