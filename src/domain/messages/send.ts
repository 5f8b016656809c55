// Sending a message: the checked message becomes a stored row with each recipient's flags, the
// recipients' clients get a `message` event, and the sender's topic visibility may change.
// Used by POST /messages, by the delivery of scheduled messages and reminders, and by the
// notification bot's own messages.
import { claimAttachments } from '../uploads/links.js';
import type { Store } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { groupMemberIds } from '../group-settings/membership.js';
import { checkMessage, type PreparedMessage, type SendInput } from './check.js';
import { messageDict } from './format.js';
import { topicExists } from './topics.js';
import { currentVisibility, senderVisibilityAfterSend } from '../user-topics/automatic.js';
import { setTopicVisibility, Visibility } from '../user-topics/set-visibility.js';
import { usersAlerted } from '../alert-words/match.js';
import { mutersOf } from '../muted-users/mute.js';
import { notifyOffZulip } from '../notifications/notify.js';

export interface SendOptions {
  /** Whether the sender starts with the message read; absent: decided from the client's name. */
  readBySender?: boolean;
  /** Other recipients who start with the message read (the creator of an announced channel). */
  readBy?: number[];
  /** The sender's event queue and local ID, for local echo (local_message_id). */
  queueId?: string;
  localId?: string;
}

export interface SendResult {
  message: Message;
  /** Set when the send changed the sender's visibility policy for the topic. */
  automaticNewVisibilityPolicy?: number;
}

/** Clients that are people at a keyboard: what they send starts as read for the sender. */
const HUMAN_CLIENTS = new Set([
  'zulipandroid',
  'zulipios',
  'zulipdesktop',
  'zulipmobile',
  'zulipelectron',
  'zulipterminal',
  'zulipflutter',
  'snipe',
  'website',
  'ios',
  'android',
]);

export function defaultReadBySender(client: string): boolean {
  const name = client.toLowerCase();
  return HUMAN_CLIENTS.has(name) || name.includes('desktop app');
}

/**
 * Each recipient's flags: read (the sender, if asked, and whoever muted the sender), mentions,
 * wildcard mentions and alert words.
 */
function flagsFor(
  store: Store,
  prepared: PreparedMessage,
  readBySender: boolean,
  readBy: number[] | undefined,
): Record<string, string[]> {
  const { rendered, sender } = prepared;
  let mentioned: ReadonlySet<number> = rendered.mentionedUserIds;
  if (rendered.mentionedGroupIds.size) {
    const all = new Set(mentioned);
    for (const groupId of rendered.mentionedGroupIds) for (const id of groupMemberIds(store, groupId)) all.add(id);
    mentioned = all;
  }
  const muters = mutersOf(store, sender.user_id);
  const alerted = usersAlerted(store, prepared.content, prepared.recipientIds);
  // What holds for every recipient, or for none, is asked once (this runs for every subscriber).
  const anyMentioned = mentioned.size > 0;
  const anyMuter = muters.size > 0;
  const anyAlerted = alerted.size > 0;
  const readByOthers = readBy?.length ? readBy : null;
  const channelWildcard = rendered.mentionsChannelWildcard;
  const topicWildcard = rendered.mentionsTopicWildcard;
  const flags: Record<string, string[]> = {};
  for (const userId of prepared.recipientIds) {
    const f: string[] = [];
    if (
      (userId === sender.user_id && readBySender) ||
      (readByOthers !== null && readByOthers.includes(userId)) ||
      (anyMuter && muters.has(userId))
    )
      f.push('read');
    if (anyMentioned && mentioned.has(userId)) f.push('mentioned');
    if (channelWildcard) f.push('stream_wildcard_mentioned');
    if (topicWildcard && prepared.topicParticipantIds.has(userId)) f.push('topic_wildcard_mentioned');
    if (anyAlerted && alerted.has(userId)) f.push('has_alert_word');
    flags[userId] = f;
  }
  return flags;
}

/** Mentioned recipients who follow topics where they are mentioned start following this one. */
function followForMentions(world: WorldCtx, message: Message, prepared: PreparedMessage): void {
  const { store } = world;
  for (const userId of prepared.rendered.mentionedUserIds) {
    const user = store.users.get(userId);
    if (!user || user.is_bot || userId === prepared.sender.user_id || !(String(userId) in message.flags)) continue;
    if (!user.settings.automatically_follow_topics_where_mentioned) continue;
    if (currentVisibility(store, userId, message.stream_id!, message.topic) === Visibility.followed) continue;
    setTopicVisibility(world, userId, {
      streamId: message.stream_id!,
      topic: message.topic,
      policy: Visibility.followed,
    });
  }
}

/** Stores a checked message and tells everyone concerned. */
function doSendMessage(world: WorldCtx, prepared: PreparedMessage, options: SendOptions = {}): SendResult {
  const { store, events } = world;
  const { sender, addressee } = prepared;
  const readBySender = options.readBySender ?? defaultReadBySender(prepared.client);
  const streamId = addressee.type === 'stream' ? addressee.stream.stream_id : null;
  const initiated = streamId !== null && !topicExists(store, streamId, prepared.topic);
  const message: Message = {
    id: store.nextId('messages'),
    sender_id: sender.user_id,
    type: addressee.type,
    stream_id: streamId,
    topic: prepared.topic,
    recipient_ids: addressee.type === 'private' ? prepared.recipientIds : [],
    content: prepared.content,
    rendered_content: prepared.rendered.html,
    timestamp: world.clock.now(),
    client: prepared.client,
    flags: flagsFor(store, prepared, readBySender, options.readBy),
    reactions: [],
    last_edit_timestamp: null,
  };
  store.messages.insert(message);
  claimAttachments(world, sender, message);

  let dict: Record<string, unknown> | undefined;
  if (events.listening !== false) {
    const event = { type: 'message', message: (dict = messageDict(store, message)) };
    events.publish(prepared.recipientIds, event, (queueId, userId) => {
      // Written out, not `{ ...event, flags }`: V8 (Node 20) takes a slow path for a spread with
      // fields after it, and this runs once per recipient with a queue.
      const variant: Record<string, unknown> = {
        type: event.type,
        message: event.message,
        flags: message.flags[String(userId)] ?? [],
      };
      if (options.localId !== undefined && queueId === options.queueId && userId === sender.user_id)
        variant.local_message_id = options.localId;
      return variant;
    });
  }

  // Push notifications and missed-message emails, into the world's outbox.
  notifyOffZulip(world, message, prepared.rendered);

  const result: SendResult = { message };
  if (streamId !== null) {
    const policy = senderVisibilityAfterSend(store, sender, streamId, prepared.topic, initiated);
    if (policy !== null) {
      setTopicVisibility(world, sender.user_id, { streamId, topic: prepared.topic, policy });
      result.automaticNewVisibilityPolicy = policy;
    }
    followForMentions(world, message, prepared);
  }
  // As the real server queues service bot events once the message is stored: the calls run later.
  const { rendered } = prepared;
  world.serviceBots?.messageSent(
    message,
    { userIds: rendered.mentionedUserIds, groupIds: rendered.mentionedGroupIds },
    prepared.recipientIds,
    dict,
  );
  return result;
}

/** check_message + do_send_messages: the whole send, usable without HTTP. */
export function sendMessage(world: WorldCtx, sender: User, input: SendInput & SendOptions): SendResult {
  return doSendMessage(world, checkMessage(world.store, sender, input, world.clock.nowMs()), input);
}

/**
 * A message from the notification bot (announcements, notices of moves and subscriptions, reports,
 * reminders): every bot notice goes through the ordinary send path, as on the real server.
 */
export function sendNotificationBotMessage(
  world: WorldCtx,
  input: Omit<SendInput, 'client'> & Pick<SendOptions, 'readBy'>,
): SendResult {
  const bot = world.store.users.get(world.store.realm.notification_bot_id)!;
  return sendMessage(world, bot, { ...input, client: 'Internal', readBySender: true });
}
