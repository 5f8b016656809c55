// check_update_message, the checking half of PATCH /messages/{message_id}: the request must be
// well formed, and the user allowed to change the content (its sender, within the edit time
// limit), the topic (move or resolve permission, within the move time limit) and the channel
// (permission to move out of the old one and to post in the new one). Returns what to change;
// changes nothing.
import { ApiError, badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { WorldCtx } from '../context.js';
import type { Message, Stream, User } from '../../store/state.js';
import { accessStreamContentById, canAdministerChannel } from '../channels/access.js';
import { holdsSetting } from '../group-settings/membership.js';
import { renderMessage, type RenderResult } from '../render/markdown.js';
import { renderLevel } from '../render/render-level.js';
import { isAdmin, isModerator } from '../users/roles.js';
import { accessMessage } from './access.js';
import { checkChannelSendAccess, checkMentions, normalizeContent, type Supports } from './check.js';
import { checkCanEditContent } from './edit-limit.js';
import {
  effectiveTopicsPolicy,
  checkTopicPolicy,
  normalizeTopic,
  RESOLVED_TOPIC_PREFIX,
  topicExists,
  topicParticipants,
} from './topics.js';
import { sha256Hex, topicMessages } from './topic-messages.js';

type PropagateMode = 'change_one' | 'change_later' | 'change_all';
/** Grace the real server allows past each time limit (requests in flight). */
const LIMIT_BUFFER_SECONDS = 20;

export interface EditInput {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  prevContentSha256?: string;
  emptyTopicDisplayName: string;
  supports: Supports;
}

export interface EditPlan {
  message: Message;
  propagateMode: PropagateMode;
  content?: { text: string; rendered: RenderResult };
  /** Channel messages only: where the messages are and where they go. */
  origStream?: Stream;
  targetStream?: Stream;
  /** The new topic, when it changes. */
  topic?: string;
  resolved: boolean;
  unresolved: boolean;
}

// \u2714 is the resolved mark of RESOLVED_TOPIC_PREFIX, escaped: the bundled command line stays ASCII (scripts/build.mjs).
export const stripResolvedPrefix = (topic: string) => topic.replace(/^[\u2714 ]+/u, '');

const canMoveWithinChannel = (store: Store, user: User, stream: Stream) =>
  isAdmin(user) ||
  canAdministerChannel(store, user, stream) ||
  holdsSetting(store, stream.can_move_messages_within_channel_group, user.user_id);

function canEditTopic(store: Store, user: User, orig: Stream, target: Stream): boolean {
  return (
    holdsSetting(store, store.realm.can_move_messages_between_topics_group, user.user_id) ||
    canMoveWithinChannel(store, user, orig) ||
    canMoveWithinChannel(store, user, target)
  );
}

function canResolveTopics(store: Store, user: User, orig: Stream, target: Stream): boolean {
  return (
    holdsSetting(store, store.realm.can_resolve_topics_group, user.user_id) ||
    holdsSetting(store, orig.can_resolve_topics_group, user.user_id) ||
    holdsSetting(store, target.can_resolve_topics_group, user.user_id)
  );
}

function canMoveOutOfChannel(store: Store, user: User, stream: Stream): boolean {
  return (
    isAdmin(user) ||
    holdsSetting(store, store.realm.can_move_messages_between_channels_group, user.user_id) ||
    canAdministerChannel(store, user, stream) ||
    holdsSetting(store, stream.can_move_messages_out_of_channel_group, user.user_id)
  );
}

const tooOld = (message: Message, limit: number | null | undefined, now: number) =>
  limit != null && now - message.timestamp > limit + LIMIT_BUFFER_SECONDS;

/** change_all by someone bound by the move time limits must be able to move every message of the topic. */
function checkChangeAllLimit(store: Store, user: User, plan: EditPlan, now: number): void {
  const error = changeAllLimitError(store, user, plan, now);
  if (error) throw error;
}

/**
 * A change_all move whose own message is past the time limit (FL 505, behaviour
 * move_limit_counts_for_old_target): when some message of the topic is still within the limit,
 * the answer is the MOVE_MESSAGES_TIME_LIMIT_EXCEEDED error with its counts; before 505, and when
 * none is, the message's own time-limit error.
 */
function checkOldTargetChangeAll(store: Store, user: User, plan: EditPlan, now: number, supports: Supports): void {
  if (plan.propagateMode !== 'change_all' || !supports('move_limit_counts_for_old_target')) return;
  const error = changeAllLimitError(store, user, plan, now);
  if (error && (error.extra?.total_messages_allowed_to_move as number) > 0) throw error;
}

function changeAllLimitError(store: Store, user: User, plan: EditPlan, now: number): ApiError | null {
  const { realm } = store;
  const limits = [
    plan.topic !== undefined ? realm.move_messages_within_stream_limit_seconds : null,
    plan.targetStream !== plan.origStream ? realm.move_messages_between_streams_limit_seconds : null,
  ].filter((l): l is number => l != null);
  if (!limits.length) return null;
  const deadline = Math.min(...limits) + LIMIT_BUFFER_SECONDS;
  const all = topicMessages(store, user, plan.message, 'change_all');
  const allowed = all.filter((m) => now - m.timestamp <= deadline);
  if (allowed.length === all.length) return null;
  return new ApiError(
    'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    `You only have permission to move the ${allowed.length}/${all.length} most recent messages in this topic.`,
    400,
    {
      first_message_id_allowed_to_move: allowed[0]?.id ?? null,
      total_messages_in_topic: all.length,
      total_messages_allowed_to_move: allowed.length,
    },
  );
}

/** validate_message_edit_payload: the request makes sense for this message. */
function checkPayload(message: Message, input: EditInput, topic: string | undefined): void {
  if (topic === undefined && input.content === undefined && input.streamId === undefined)
    throw badRequest('Nothing to change');
  if (message.type === 'private') {
    if (input.streamId !== undefined) throw badRequest('Direct messages cannot be moved to channels.');
    if (topic !== undefined) throw badRequest('Direct messages cannot have topics.');
  }
  if (input.propagateMode !== 'change_one' && topic === undefined && input.streamId === undefined) {
    throw badRequest('Invalid propagate_mode without topic edit');
  }
  if (
    topic !== undefined &&
    (topic === RESOLVED_TOPIC_PREFIX.trim() || topic === `${RESOLVED_TOPIC_PREFIX}${input.emptyTopicDisplayName}`)
  ) {
    throw badRequest('General chat cannot be marked as resolved');
  }
  if (input.streamId !== undefined && input.content !== undefined)
    throw badRequest('Cannot change message content while changing channel');
  if (input.prevContentSha256 !== undefined && input.prevContentSha256 !== sha256Hex(message.content)) {
    throw new ApiError('EXPECTATION_MISMATCH', "'prev_content_sha256' value does not match the expected value.");
  }
}

export function checkUpdateMessage(world: WorldCtx, user: User, input: EditInput & { messageId: number }): EditPlan {
  const { store } = world;
  const now = world.clock.now();
  const message = accessMessage(store, user, input.messageId);
  if (input.content !== undefined) checkCanEditContent(store, user, message, now);

  let topic =
    input.topic === undefined ? undefined : normalizeTopic(input.topic, input.emptyTopicDisplayName, input.supports);
  if (topic === message.topic) topic = undefined;
  checkPayload(message, input, topic);

  const plan: EditPlan = { message, propagateMode: input.propagateMode, resolved: false, unresolved: false };
  if (message.type === 'stream') {
    const orig = store.streams.get(message.stream_id!)!;
    // Naming the channel the message is already in moves nothing.
    const target =
      input.streamId !== undefined && input.streamId !== orig.stream_id
        ? accessStreamContentById(store, user, input.streamId)
        : orig;
    Object.assign(plan, { origStream: orig, targetStream: target, topic });
    const targetTopic = topic ?? message.topic;
    const moved = topic !== undefined || target !== orig;
    if (moved || effectiveTopicsPolicy(store, target) === 'empty_topic_only')
      checkTopicPolicy(store, target, targetTopic, input.emptyTopicDisplayName);
    if (topic !== undefined) {
      plan.resolved =
        topic.startsWith(RESOLVED_TOPIC_PREFIX) &&
        !message.topic.startsWith(RESOLVED_TOPIC_PREFIX) &&
        topic.slice(RESOLVED_TOPIC_PREFIX.length) === message.topic;
      plan.unresolved =
        message.topic.startsWith(RESOLVED_TOPIC_PREFIX) &&
        !topic.startsWith(RESOLVED_TOPIC_PREFIX) &&
        stripResolvedPrefix(message.topic) === topic;
      if (plan.resolved || plan.unresolved) {
        if (!canResolveTopics(store, user, orig, target))
          throw badRequest("You don't have permission to resolve topics in this channel.");
      } else {
        if (!canEditTopic(store, user, orig, target))
          throw badRequest("You don't have permission to edit this message");
        if (!isModerator(user) && tooOld(message, store.realm.move_messages_within_stream_limit_seconds, now)) {
          checkOldTargetChangeAll(store, user, plan, now, input.supports);
          throw badRequest("The time limit for editing this message's topic has passed.");
        }
      }
    }
  }

  if (input.content !== undefined) {
    const text = input.content.trimEnd() === '' ? '(deleted)' : normalizeContent(input.content);
    const sender = store.users.get(message.sender_id)!;
    const rendered = renderMessage(store, text, sender, renderLevel(input.supports), world.clock.nowMs());
    const participants =
      message.type === 'stream' ? topicParticipants(store, message.stream_id!, message.topic) : new Set<number>();
    checkMentions(store, sender, plan.origStream ?? null, rendered, participants, input.supports);
    plan.content = { text, rendered };
  }

  if (plan.origStream && plan.targetStream) {
    const moved = plan.topic !== undefined || plan.targetStream !== plan.origStream;
    if (plan.targetStream !== plan.origStream) {
      if (!canMoveOutOfChannel(store, user, plan.origStream))
        throw badRequest("You don't have permission to move this message");
      checkChannelSendAccess(store, user, plan.targetStream);
      if (!isModerator(user) && tooOld(message, store.realm.move_messages_between_streams_limit_seconds, now)) {
        checkOldTargetChangeAll(store, user, plan, now, input.supports);
        throw badRequest("The time limit for editing this message's channel has passed");
      }
    }
    const resolving = plan.resolved || plan.unresolved;
    if (plan.propagateMode === 'change_all' && !isModerator(user) && moved && !resolving)
      checkChangeAllLimit(store, user, plan, now);
    const targetTopic = plan.topic ?? message.topic;
    if (
      moved &&
      !resolving &&
      !topicExists(store, plan.targetStream.stream_id, targetTopic) &&
      !holdsSetting(store, plan.targetStream.can_create_topic_group, user.user_id)
    ) {
      throw badRequest('You do not have permission to create new topics in this channel.');
    }
  }
  return plan;
}
