// Which service bots a sent message calls, and why: the real server's get_service_bot_events.
// A channel message calls an active outgoing webhook or embedded bot it mentions (by name, or
// through a mentioned group while the bot is subscribed: only subscribers and users named in the
// message are looked at); a direct message calls each such bot among its participants. A
// message sent by a bot calls nobody (no loops between bots); each bot is called at most once.
import type { Store } from '../../../store/store.js';
import type { Message, User } from '../../../store/state.js';
import type { SentMentions } from '../../context.js';
import { groupMemberIds } from '../../group-settings/membership.js';
import { BotType } from '../services.js';

export interface ServiceBotEvent {
  bot: User;
  /** 'mention' or 'direct_message' ('private_message' before feature level 201). */
  trigger: string;
}

/** The trigger of a direct message at `level`: renamed in Zulip 8.0 (feature level 201). */
const directMessageTrigger = (level: number) => (level >= 201 ? 'direct_message' : 'private_message');

const isServiceBot = (u: User | undefined): u is User =>
  !!u && u.is_active && u.is_bot && (u.bot_type === BotType.outgoingWebhook || u.bot_type === BotType.embedded);

export function serviceBotEvents(
  store: Store,
  message: Message,
  mentions: SentMentions,
  recipientIds: readonly number[],
  level: number,
): ServiceBotEvent[] {
  const sender = store.users.get(message.sender_id);
  if (!sender || sender.is_bot) return [];
  // The users looked at: the recipients and whoever the message names (a bot named but not
  // subscribed included). One map lookup each: no set of a large channel's subscribers is built.
  const bots: User[] = [];
  const consider = (id: number) => {
    const user = store.users.get(id);
    if (isServiceBot(user) && !bots.includes(user)) bots.push(user);
  };
  for (const id of recipientIds) consider(id);
  if (message.type !== 'stream') return bots.map((bot) => ({ bot, trigger: directMessageTrigger(level) }));
  for (const id of mentions.userIds) consider(id);
  if (!bots.length) return [];
  const mentioned = new Set([
    ...mentions.userIds,
    ...[...mentions.groupIds].flatMap((g) => [...groupMemberIds(store, g)]),
  ]);
  return bots.filter((bot) => mentioned.has(bot.user_id)).map((bot) => ({ bot, trigger: 'mention' }));
}
