// Reporting a message: the notification bot posts the report in the organization's moderation
// request channel, in a topic per reported user, naming the reporter, the message (linked), the
// reason, the reporter's notes, and the message's text behind a spoiler.
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { accessMessage } from './access.js';
import { unusedFence } from '../render/quote.js';
import { silentMention } from '../render/mentions.js';
import { sendNotificationBotMessage } from './send.js';
import { truncate } from './truncate.js';

/** How much of the reported message the report quotes. */
const MAX_REPORT_MESSAGE_SNIPPET_LENGTH = 500;

/** "A", "A and B", "A, B, and C". */
function listOfNames(items: string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`;
}

function whereSent(store: Store, message: Message, reported: User): string {
  if (message.type === 'stream') {
    const stream = store.streams.get(message.stream_id!)!;
    return `#**${stream.name}>${message.topic}@${message.id}**`;
  }
  const participants = message.recipient_ids.map((id) => store.users.get(id)!);
  const shown = participants.length <= 2 ? participants.filter((u) => u.user_id !== reported.user_id) : participants;
  const names = (shown.length ? shown : [reported])
    .sort((a, b) => a.full_name.localeCompare(b.full_name))
    .map(silentMention);
  return `a DM sent by ${silentMention(reported)} to ${listOfNames(names)}`;
}

function reportContent(
  store: Store,
  reporter: User,
  message: Message,
  reportType: string,
  description: string,
): string {
  const reported = store.users.get(message.sender_id)!;
  const where = whereSent(store, message, reported);
  const what = message.type === 'stream' ? `${where} sent by ${silentMention(reported)}` : where;
  const snippet = truncate(message.content, MAX_REPORT_MESSAGE_SNIPPET_LENGTH, '\n[message truncated]');
  const fence = unusedFence(snippet);
  return [
    `${silentMention(reporter)} reported ${what}.`,
    `- Reason: **${reportType}**`,
    '- Notes:',
    '```quote',
    description,
    '```',
    `${fence} spoiler **Message sent by ${silentMention(reported)}**`,
    snippet,
    fence,
  ].join('\n');
}

export interface Report {
  messageId: number;
  reportType: string;
  description: string;
  /** The server's topic length limit (from the description), which the report's topic keeps to. */
  maxTopicLength: number;
}

export function reportMessage(
  world: WorldCtx,
  reporter: User,
  { messageId, reportType, description, maxTopicLength }: Report,
): void {
  const { store } = world;
  const channelId = store.realm.moderation_request_channel_id;
  const channel = channelId === null ? undefined : store.streams.get(channelId);
  if (!channel) throw badRequest('Moderation request channel must be specified to enable message reporting.');
  if (reportType === 'other' && !description.trim())
    throw badRequest('For report_type=other, a description must be provided.');
  const message = accessMessage(store, reporter, messageId);
  const reported = store.users.get(message.sender_id)!;
  sendNotificationBotMessage(world, {
    type: 'stream',
    to: channel.stream_id,
    topic: truncate(`${reported.full_name}'s moderation requests`, maxTopicLength, '...'),
    content: reportContent(store, reporter, message, reportType, description),
  });
}
