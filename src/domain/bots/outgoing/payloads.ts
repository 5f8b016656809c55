// What an outgoing webhook bot is sent, as the real server builds it. Zulip's format (interface 1):
// a JSON body with the message's Markdown (`data`), the message as GET /messages shows it with its
// Markdown content and its rendering (MessageDict.finalize_payload with apply_markdown off,
// keep_rendered_content on, no flags), the bot's email and name, its token and the trigger.
// Slack's format (interface 2): a form with Slack's field names, prefixed IDs (T, C, U) and the
// organization's host as team_domain.
import type { Store } from '../../../store/store.js';
import type { User } from '../../../store/state.js';
import { personalRecipientId } from '../../messages/format.js';

/** The message dict a service bot event carries (messages/format.ts's messageDict, taken when the message was sent). */
export type MessageSnapshot = Record<string, any>;

export function genericPayload(
  bot: User,
  message: MessageSnapshot,
  token: string,
  trigger: string,
): Record<string, unknown> {
  // Object.assign, not a spread with a field after it: Node 20's V8 takes a slow path for that
  // (see events/queue.ts). The dict is the server's own (no "__proto__" key to be wary of).
  const dict: Record<string, unknown> = Object.assign({}, message, { content_type: 'text/x-markdown' });
  // A one-to-one message to the bot shows the sender's conversation, as the bot's own clients see it (is_incoming_1_to_1).
  const others =
    message.type === 'private'
      ? (message.display_recipient as Array<{ id: number }>).filter((r) => r.id !== message.sender_id)
      : [];
  if (others.length === 1 && others[0].id === bot.user_id) dict.recipient_id = personalRecipientId(message.sender_id);
  return { data: message.content, message: dict, bot_email: bot.email, bot_full_name: bot.full_name, token, trigger };
}

/** The organization's host, port included, as the real server's realm.host. */
const realmHost = (store: Store) => new URL(store.realm.url).host;

export function slackForm(
  store: Store,
  bot: User,
  message: MessageSnapshot,
  token: string,
  trigger: string,
): Array<[string, string]> {
  const ts = String(message.timestamp);
  return [
    ['token', token],
    ['team_id', `T${store.realm.id}`],
    ['team_domain', realmHost(store)],
    ['channel_id', `C${message.stream_id}`],
    ['channel_name', String(message.display_recipient)],
    ['thread_ts', ts],
    ['timestamp', ts],
    ['user_id', `U${message.sender_id}`],
    ['user_name', String(message.sender_full_name)],
    ['text', String(message.content)],
    ['trigger_word', trigger],
    ['service_id', String(bot.user_id)],
  ];
}
