// Embedded bots (bot_type 4): the bundled bots of python-zulip-api that the real development
// server runs inside itself, here the ones that only answer the message they get, written anew:
// helloworld ("beep boop"), encrypt (ROT13) and followup (the message copied to a channel).
// Not run (the call is journaled as unsupported, nothing is posted): converter (a large table
// of units, not ported yet), virtual_fs (a file system kept in bot storage, not ported yet) and
// giphy (calls GIPHY's service on the internet, which the mock never calls).
// As the real worker does, a mention must open the message: its text after the mention is what
// the bot reads; a message where the bot's mention comes later gets no answer.
import type { User } from '../../../store/state.js';
import type { MessageSnapshot } from './payloads.js';

/** What an embedded bot asks to send: a reply where the message was, or a channel message. */
export type EmbeddedAction = { reply: string } | { channel: string; topic: string; content: string };

type Handler = (message: MessageSnapshot, config: Readonly<Record<string, string>>) => EmbeddedAction[];

function rot13(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

const FOLLOWUP_USAGE = `
            This plugin will allow users to flag messages
            as being follow-up items.  Users should preface
            messages with "@mention-bot".

            Before running this, make sure to create a stream
            called "followup" that your API user can send to.
            `;

const HANDLERS: Record<string, Handler> = {
  // The real bot also reacts with :wave:, which the server's embedded bot handler does not implement.
  helloworld: () => [{ reply: 'beep boop' }],
  encrypt: (m) => [{ reply: `Encrypted/Decrypted text: ${rot13(m.content)}` }],
  followup: (m, config) => {
    if (m.content === '')
      return [{ reply: 'Please specify the message you want to send to followup stream after @mention-bot' }];
    if (m.content === 'help') return [{ reply: FOLLOWUP_USAGE }];
    return [
      { channel: config.stream ?? 'followup', topic: m.sender_email, content: `from ${m.sender_email}: ${m.content}` },
    ];
  },
};

/** Bots that need their configuration (the real handler refuses to start without one). */
const NEEDS_CONFIG = new Set(['followup']);

/** The bundled bot's answer, or null when the mock does not run it (or it would not start). */
export function runEmbeddedBot(
  name: string,
  message: MessageSnapshot,
  config: Readonly<Record<string, string>>,
): EmbeddedAction[] | null {
  const handler = HANDLERS[name];
  if (!handler || (NEEDS_CONFIG.has(name) && !Object.keys(config).length)) return null;
  return handler(message, config);
}

/**
 * The text after the bot's mention when the message opens with it (@**Name** or @**Name|id**),
 * leading whitespace removed; null otherwise (zulip_bots' extract_query_without_mention).
 */
export function withoutMention(content: string, bot: User): string | null {
  const extended = new RegExp(`^@\\*\\*.*\\|${bot.user_id}\\*\\*`).exec(content);
  if (extended) return content.slice(extended[0].length).replace(/^\s+/, '');
  const mention = `@**${bot.full_name}**`;
  return content.startsWith(mention) ? content.slice(mention.length).replace(/^\s+/, '') : null;
}
