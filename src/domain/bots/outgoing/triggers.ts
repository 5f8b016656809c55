// Which service bots a sent message calls, and why: the real server's get_service_bot_events.
// A channel message calls an active outgoing webhook or embedded bot it mentions (by name, or
// through a mentioned group while the bot is subscribed: only subscribers and users named in the
// message are looked at); a direct message calls each such bot among its participants. A
// message sent by a bot calls nobody (no loops between bots); each bot is called at most once.
import type { Store } from '../../../store/store.js';
import type { Message, User } from '../../../store/state.js';
import type { SentMentions } from '../../context.js';
import { groupMemberIds } from '../../groups/membership.js';
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

export function serviceBotEvents(store: Store, message: Message, mentions: SentMentions, recipientIds: readonly number[], level: number): ServiceBotEvent[] {
  const sender = store.users.get(message.sender_id);
  if (!sender || sender.is_bot) return [];
  // The users looked at: the recipients and whoever the message names (a bot named but not subscribed included).
  const candidates = new Set<number>([...recipientIds, ...mentions.userIds]);
  const out: ServiceBotEvent[] = [];
  if (message.type === 'stream') {
    let mentioned: Set<number> | null = null;
    for (const id of candidates) {
      const bot = store.users.get(id);
      if (!isServiceBot(bot)) continue;
      // Group members are counted as mentioned only here, once a service bot is among the candidates.
      mentioned ??= new Set([...mentions.userIds, ...[...mentions.groupIds].flatMap((g) => [...groupMemberIds(store, g)])]);
      if (mentioned.has(id)) out.push({ bot, trigger: 'mention' });
    }
    return out;
  }
  for (const id of recipientIds) {
    const bot = store.users.get(id);
    if (isServiceBot(bot)) out.push({ bot, trigger: directMessageTrigger(level) });
  }
  return out;
}
