// do_update_message, the changing half of PATCH /messages/{message_id}: new content (with the
// mention flags it implies), a new topic and/or channel for the messages propagate_mode selects,
// the edit history, and the events: update_message to everyone who can see the messages, and
// delete_message to those a channel move takes them away from. Then the notification bot's
// notices (resolved topic, moved messages).
import type { Store } from '../../store/store.js';
import type { EditHistoryEntry, Message, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { subscriberIds } from '../channels/access.js';
import { groupMemberIds } from '../group-settings/membership.js';
import { topicLinks } from '../render/linkifiers.js';
import { isGuest } from '../users/roles.js';
import { firstMessageId, tellFirstMessageId } from '../channels/first-message.js';
import { audienceOf } from './audience.js';
import type { EditPlan } from './edit-request.js';
import { sendMoveNotices } from './move-notices.js';
import { topicMessages } from './topic-messages.js';
import { topicParticipants } from './topics.js';
import { usersAlerted } from '../alert-words/match.js';

const MENTION_FLAGS = new Set(['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'has_alert_word']);

/** Recomputes the mention and alert word flags of everyone who received the message (not historical rows). */
function flagsAfterContentEdit(store: Store, message: Message, plan: EditPlan): Record<string, string[]> {
  const { rendered } = plan.content!;
  const mentioned = new Set(rendered.mentionedUserIds);
  for (const groupId of rendered.mentionedGroupIds) for (const id of groupMemberIds(store, groupId)) mentioned.add(id);
  const participants =
    rendered.mentionsTopicWildcard && message.type === 'stream'
      ? topicParticipants(store, message.stream_id!, message.topic)
      : new Set<number>();
  const alerted = usersAlerted(store, plan.content!.text, Object.keys(message.flags).map(Number));
  const out: Record<string, string[]> = {};
  for (const [key, flags] of Object.entries(message.flags)) {
    if (flags.includes('historical')) {
      out[key] = flags;
      continue;
    }
    const id = Number(key);
    const kept = flags.filter((f) => !MENTION_FLAGS.has(f));
    if (mentioned.has(id)) kept.push('mentioned');
    if (rendered.mentionsChannelWildcard) kept.push('stream_wildcard_mentioned');
    if (participants.has(id)) kept.push('topic_wildcard_mentioned');
    if (alerted.has(id)) kept.push('has_alert_word');
    out[key] = kept;
  }
  return out;
}

interface MoveOutcome {
  /** Users who may no longer see the moved messages (they get delete_message). */
  lostAccess: Set<number>;
}

/**
 * A channel move keeps the messages only for subscribers of the new channel: the others lose
 * their rows, and new subscribers who lacked rows get them (marked read).
 */
function moveFlags(
  store: Store,
  m: Message,
  targetSubscribers: Set<number>,
  publicTarget: boolean,
  outcome: MoveOutcome,
): Record<string, string[]> {
  const flags: Record<string, string[]> = {};
  for (const [key, f] of Object.entries(m.flags)) {
    const id = Number(key);
    if (targetSubscribers.has(id)) flags[key] = f;
    else if (!publicTarget || isGuest(store.users.get(id)!)) outcome.lostAccess.add(id);
  }
  for (const id of targetSubscribers) flags[String(id)] ??= ['read'];
  return flags;
}

export interface MessageUpdate {
  plan: EditPlan;
  /** Whether the notification bot tells the old and the new topic of a move. */
  notifyOld: boolean;
  notifyNew: boolean;
  /** The server's resolve-topic undo grace period (ServerRules). */
  resolveUndoGraceSeconds: number;
}

export function doUpdateMessage(
  world: WorldCtx,
  user: User,
  { plan, notifyOld, notifyNew, resolveUndoGraceSeconds }: MessageUpdate,
): number {
  const { store, events } = world;
  const now = world.clock.now();
  const { message, origStream, targetStream } = plan;
  const origTopic = message.topic;
  const streamChanged = !!targetStream && targetStream !== origStream;
  const moved = plan.topic !== undefined || streamChanged;
  const changed = moved ? topicMessages(store, user, message, plan.propagateMode) : [message];
  // Who could see the messages before the change (a move may take them away from some).
  const before = audienceOf(store, changed);
  // A move between channels may change either channel's first message (see channels/first-message.ts).
  const firstBefore = streamChanged
    ? [firstMessageId(store, origStream!.stream_id), firstMessageId(store, targetStream!.stream_id)]
    : [];

  const event: Record<string, unknown> = {
    type: 'update_message',
    user_id: user.user_id,
    edit_timestamp: now,
    message_id: message.id,
    message_ids: changed.map((m) => m.id),
    rendering_only: false,
  };
  if (origStream) Object.assign(event, { stream_name: origStream.name, stream_id: origStream.stream_id });

  if (plan.content) {
    const { text, rendered } = plan.content;
    Object.assign(event, {
      orig_content: message.content,
      orig_rendered_content: message.rendered_content,
      content: text,
      rendered_content: rendered.html,
      is_me_message: /^\/me( |$)/.test(text),
    });
    const entry: EditHistoryEntry = {
      user_id: user.user_id,
      timestamp: now,
      prev_content: message.content,
      prev_rendered_content: message.rendered_content,
    };
    store.messages.update(message, {
      content: text,
      rendered_content: rendered.html,
      flags: flagsAfterContentEdit(store, message, plan),
      last_edit_timestamp: now,
      edit_history: [entry, ...(message.edit_history ?? [])],
    });
  }

  const outcome: MoveOutcome = { lostAccess: new Set() };
  if (moved) {
    const newTopic = plan.topic ?? origTopic;
    event.propagate_mode = plan.propagateMode;
    event.orig_subject = origTopic;
    if (plan.topic !== undefined) Object.assign(event, { subject: newTopic, topic_links: topicLinks(store, newTopic) });
    if (streamChanged) event.new_stream_id = targetStream!.stream_id;
    const targetSubscribers = new Set(subscriberIds(store, targetStream!.stream_id));
    for (const m of changed) {
      const entry: EditHistoryEntry = { user_id: user.user_id, timestamp: now };
      if (plan.topic !== undefined) Object.assign(entry, { prev_topic: m.topic, topic: newTopic });
      if (streamChanged) Object.assign(entry, { prev_stream: m.stream_id!, stream: targetStream!.stream_id });
      const history = m.edit_history ?? [];
      // The edited message's content change and move are one edit.
      const merged =
        m === message && plan.content ? [{ ...history[0], ...entry }, ...history.slice(1)] : [entry, ...history];
      store.messages.update(m, {
        topic: newTopic,
        stream_id: targetStream!.stream_id,
        last_moved_timestamp: now,
        edit_history: merged,
        ...(streamChanged
          ? { flags: moveFlags(store, m, targetSubscribers, !targetStream!.invite_only, outcome) }
          : {}),
      });
    }
  }

  const audience = new Set([...before, ...audienceOf(store, changed)]);
  for (const id of outcome.lostAccess) audience.delete(id);
  // Object.assign, not a spread with a field after it (V8's slow path), once per recipient with a
  // queue; the event's keys are the server's own, none of them `__proto__`.
  events.publish(audience, event, (_queue, userId) =>
    Object.assign({}, event, { flags: message.flags[String(userId)] ?? ['read'] }),
  );
  if (outcome.lostAccess.size) {
    events.publish(outcome.lostAccess, {
      type: 'delete_message',
      message_type: 'stream',
      message_ids: changed.map((m) => m.id),
      stream_id: origStream!.stream_id,
      topic: origTopic,
    });
  }
  if (streamChanged) {
    tellFirstMessageId(world, origStream!, firstBefore[0], new Set([...before, user.user_id]));
    tellFirstMessageId(world, targetStream!, firstBefore[1], new Set([...audienceOf(store, changed), user.user_id]));
  }
  if (moved) sendMoveNotices(world, user, { plan, changed, origTopic, notifyOld, notifyNew, resolveUndoGraceSeconds });
  return changed.length;
}
