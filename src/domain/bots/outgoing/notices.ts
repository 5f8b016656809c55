// What a service bot posts back, through the ordinary send path: its answer where the message
// that called it was (the same topic, or the same direct message conversation), a "Failure! ..."
// there when the call failed, and a direct message to its owner saying why (the real server's
// send_response_message, fail_with_message and notify_bot_owner, with their wording).
import { ApiError } from '../../../errors.js';
import type { User } from '../../../store/state.js';
import type { WorldCtx } from '../../context.js';
import { sendMessage } from '../../messages/send.js';
import { truncate } from '../../messages/truncate.js';
import { messageUrl } from '../../render/narrow-urls.js';
import type { MessageSnapshot } from './payloads.js';

/** The sending client of outgoing webhook answers (embedded bots send as "Internal"). */
const WEBHOOK_CLIENT = 'OutgoingWebhookResponse';

/** Posts `content` as the bot where `message` was; throws the send's ApiError. */
export function replyWhereSent(
  world: WorldCtx,
  bot: User,
  message: MessageSnapshot,
  content: string,
  client = WEBHOOK_CLIENT,
): void {
  if (message.type === 'stream') {
    sendMessage(world, bot, {
      type: 'stream',
      to: message.stream_id,
      topic: message.subject,
      content,
      client,
      skipChannelAccessCheck: true,
    });
  } else {
    sendMessage(world, bot, {
      type: 'private',
      to: (message.display_recipient as Array<{ id: number }>).map((r) => r.id),
      content,
      client,
    });
  }
}

/** "Failure! ..." where the message was; nothing when it cannot be posted there any more (a channel gone). */
export function failWithMessage(world: WorldCtx, bot: User, message: MessageSnapshot, failure: string): void {
  try {
    replyWhereSent(world, bot, message, `Failure! ${failure}`);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
  }
}

/** A link to the message, as message_link_url writes it (direct messages: the sorted IDs, "-group" from three). */
function messageLink(realmUrl: string, message: MessageSnapshot): string {
  if (message.type === 'stream')
    return realmUrl + messageUrl(message.stream_id, String(message.display_recipient), message.subject, message.id);
  const ids = (message.display_recipient as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b);
  return `${realmUrl}/#narrow/dm/${ids.join(',')}${ids.length >= 3 ? '-group' : ''}/near/${message.id}`;
}

export interface OwnerNotice {
  status?: number;
  /** The answer as the real server quotes it: Python's repr of its bytes or text. */
  responseRepr?: string;
  failure?: string;
  /** An exception's type and text (a URL the HTTP library refuses). */
  exception?: { type: string; text: string };
}

/** The direct message to the bot's owner that a call failed, in notify_bot_owner's words. */
export function notifyBotOwner(
  world: WorldCtx,
  bot: User,
  message: MessageSnapshot,
  notice: OwnerNotice,
  maxLength: number,
): void {
  const owner = bot.bot_owner_id == null ? undefined : world.store.users.get(bot.bot_owner_id);
  if (!owner) return;
  let text = `[A message](${messageLink(world.store.realm.url, message)}) to your bot @_**${bot.full_name}** triggered an outgoing webhook.`;
  if (notice.exception) {
    text += `\nWhen trying to send a request to the webhook service, an exception of type ${notice.exception.type} occurred:\n\`\`\`\n${notice.exception.text}\n\`\`\``;
  } else if (notice.failure) {
    text += `\n${notice.failure}`;
  } else if (notice.status === 407) {
    text += '\nThe URL configured for the webhook is for a private or disallowed network.';
  } else if (notice.status) {
    text += `\nThe webhook got a response with status code *${notice.status}*.`;
  }
  if (notice.responseRepr)
    text += `\nThe response contains the following payload:\n\`\`\`\n${notice.responseRepr}\n\`\`\``;
  try {
    // A long payload is cut as the real server cuts any message past its limit (normalize_body).
    sendMessage(world, bot, {
      type: 'private',
      to: [owner.user_id],
      content: truncate(text, maxLength, '\n[message truncated]'),
      client: WEBHOOK_CLIENT,
    });
  } catch (err) {
    // An owner who can no longer be written to (deactivated): the real server's worker fails there too.
    if (!(err instanceof ApiError)) throw err;
  }
}
