// check_message: everything that must hold before a message may be sent (or scheduled), in the
// order the real server checks it. Returns the message ready to send; changes nothing.
import { ApiError, badRequest } from '../../errors.js';
import { conversationMessages, type Store } from '../../store/store.js';
import type { Stream, User } from '../../store/state.js';
import { hasContentAccess, subscriberIds } from '../channels/access.js';
import { holdsSetting } from '../group-settings/membership.js';
import { renderMessage, type RenderResult } from '../render/markdown.js';
import { renderLevel } from '../render/render-level.js';
import { notAuthorizedForChannel, streamWildcardNotAllowed, topicWildcardNotAllowed } from './errors.js';
import { addresseeFor, conversationIds, messageType, type Addressee } from './recipients.js';
import { checkTopicPolicy, normalizeTopic, topicExists, topicParticipants } from './topics.js';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../server-info.js';

export type Supports = (behaviour: string) => boolean;

export interface SendInput {
  /** direct, private, channel or stream. */
  type: string;
  to: unknown;
  content: string;
  /** Channel messages only; undefined when the client sent none. */
  topic?: string;
  /** The sending client's name (recorded on the message). */
  client: string;
  emptyTopicDisplayName?: string;
  /** The feature-level behaviours of the request (openapi/behaviours.yaml); absent: the newest. */
  supports?: Supports;
  /** A service bot's answer goes where the message it answers was, whatever the bot's own access (skip_stream_access_check). */
  skipChannelAccessCheck?: boolean;
}

export interface PreparedMessage {
  sender: User;
  addressee: Addressee;
  /** "" for direct messages and for the empty topic. */
  topic: string;
  content: string;
  rendered: RenderResult;
  /** Everyone who receives the message (gets flags): subscribers or participants, and the sender. */
  recipientIds: number[];
  /** Channel messages: who took part in the topic (for @**topic**), the sender included. */
  topicParticipantIds: Set<number>;
  client: string;
}

/** The message text as the server keeps it: trailing whitespace and leading blank lines removed. */
export function normalizeContent(content: string): string {
  const body = content.replace(/\s+$/u, '').replace(/^\n+/, '');
  if (!body) throw badRequest('Message must not be empty');
  if (body.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  return body;
}

/** access_stream_for_send_message: may the sender (or a bot's owner) post in the channel? */
export function checkChannelSendAccess(store: Store, sender: User, stream: Stream): void {
  // The system bots (notification bot, ...) belong to no group of the organization but may post anywhere.
  if (sender.is_system_bot) return;
  const owner = sender.is_bot && sender.bot_owner_id !== null ? store.users.get(sender.bot_owner_id) : undefined;
  const mayPost = (u: User | undefined) => !!u && holdsSetting(store, stream.can_send_message_group, u.user_id);
  if (!mayPost(sender) && !mayPost(owner)) throw badRequest('You do not have permission to post in this channel.');
  if (stream.is_archived) throw notAuthorizedForChannel(stream.name);
  if (!stream.invite_only) return;
  if (hasContentAccess(store, sender, stream) || (owner && hasContentAccess(store, owner, stream))) return;
  throw notAuthorizedForChannel(stream.name);
}

function checkDirectMessagePermission(store: Store, sender: User, users: User[]): void {
  if (sender.is_bot || users.every((u) => u.is_bot || u.user_id === sender.user_id)) return;
  const { realm } = store;
  const everyone = [sender, ...users];
  if (!everyone.some((u) => holdsSetting(store, realm.direct_message_permission_group, u.user_id))) {
    const nobody = store.userGroups.get(realm.direct_message_permission_group as number)?.name === 'role:nobody';
    throw badRequest(
      nobody
        ? 'Direct messages are disabled in this organization.'
        : 'This conversation does not include any users who can authorize it.',
    );
  }
  if (holdsSetting(store, realm.direct_message_initiator_group, sender.user_id)) return;
  const ids = conversationIds(sender, users).join(',');
  if (!conversationMessages(store, ids).length) {
    throw badRequest('You do not have permission to initiate direct message conversations.');
  }
}

export function checkMentions(
  store: Store,
  sender: User,
  stream: Stream | null,
  rendered: RenderResult,
  participants: Set<number>,
  supports: Supports,
): void {
  if (sender.is_system_bot) return;
  const { realm } = store;
  const mayMentionMany = () => holdsSetting(store, realm.can_mention_many_users_group, sender.user_id);
  const many = realm.wildcard_mention_large_threshold;
  // Before FL 229 the same refusals carried the generic code.
  const coded = (err: ApiError) => (supports('wildcard_mention_error_codes') ? err : badRequest(err.message));
  if (
    stream &&
    rendered.mentionsChannelWildcard &&
    subscriberIds(store, stream.stream_id).length > many &&
    !mayMentionMany()
  ) {
    throw coded(streamWildcardNotAllowed());
  }
  if (stream && rendered.mentionsTopicWildcard && participants.size > many && !mayMentionMany()) {
    throw coded(topicWildcardNotAllowed());
  }
  for (const groupId of rendered.mentionedGroupIds) {
    const group = store.userGroups.get(groupId)!;
    if (!holdsSetting(store, group.can_mention_group, sender.user_id)) {
      throw badRequest(`You are not allowed to mention user group '${group.name}'.`);
    }
  }
}

/** Without a request's level (a send outside a request): the newest level's behaviours. */
const SUPPORTS_ALL: Supports = () => true;

/** `nowMs`: the mock clock's time (the lenient `<time:...>` of older levels takes a missing date from it). */
export function checkMessage(store: Store, sender: User, input: SendInput, nowMs: number): PreparedMessage {
  const type = messageType(input.type);
  const displayName = input.emptyTopicDisplayName ?? EMPTY_TOPIC_FALLBACK_NAME;
  const supports = input.supports ?? SUPPORTS_ALL;
  let topic = '';
  if (type === 'stream') {
    if (input.topic === undefined) throw badRequest('Missing topic');
    topic = normalizeTopic(input.topic, displayName, supports);
  }
  // Direct recipients are looked up before the content is checked; channels after (as the real server).
  // Below feature level 163, API emails as the organization's email_address_visibility gives them.
  const direct =
    type === 'private' ? addresseeFor(store, type, input.to, !supports('email_visibility_per_user')) : null;
  const content = normalizeContent(input.content);
  const addressee = direct ?? addresseeFor(store, type, input.to);

  let recipientIds: number[];
  let participants = new Set<number>();
  let stream: Stream | null = null;
  if (addressee.type === 'stream') {
    stream = addressee.stream;
    if (!input.skipChannelAccessCheck) checkChannelSendAccess(store, sender, stream);
    if (
      !sender.is_system_bot &&
      !topicExists(store, stream.stream_id, topic) &&
      !holdsSetting(store, stream.can_create_topic_group, sender.user_id)
    ) {
      throw badRequest('You do not have permission to create new topics in this channel.');
    }
    checkTopicPolicy(store, stream, topic, displayName);
    recipientIds = [...new Set([...subscriberIds(store, stream.stream_id), sender.user_id])];
  } else {
    checkDirectMessagePermission(store, sender, addressee.users);
    recipientIds = conversationIds(sender, addressee.users);
  }

  const rendered = renderMessage(store, content, sender, renderLevel(supports), nowMs);
  // Only a topic wildcard mention needs the topic's participants (a walk over the topic's messages).
  if (stream && rendered.mentionsTopicWildcard) {
    participants = topicParticipants(store, stream.stream_id, topic);
    participants.add(sender.user_id);
  }
  checkMentions(store, sender, stream, rendered, participants, supports);
  return {
    sender,
    addressee,
    topic,
    content,
    rendered,
    recipientIds,
    topicParticipantIds: participants,
    client: input.client,
  };
}
