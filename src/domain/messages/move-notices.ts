// The notification bot's notices after a move: "has marked this topic as (un)resolved" in the
// topic (an undo within the server's grace period deletes the previous notice instead), and the breadcrumbs in the
// old and new topics saying what moved where and who moved it. The acting user has them read.
import { topicMessagesInOrder } from '../../store/store.js';
import type { Message, Stream, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { messageUrl } from '../render/narrow-urls.js';
import { deleteMessages } from './delete.js';
import { stripResolvedPrefix, type EditPlan } from './edit-request.js';
import { sendNotificationBotMessage } from './send.js';
import { visibleTopicMessages } from './topic-messages.js';

const RESOLVE_NOTICE = /^@_\*\*[^*]+\*\* has marked this topic as (un)?resolved\.$/;

const mention = (u: User) => `@_**${u.full_name}|${u.user_id}**`;
const topicLink = (s: Stream, topic: string) => `#**${s.name}>${topic}**`;

function post(world: WorldCtx, actor: User, stream: Stream, topic: string, content: string): Message {
  return sendNotificationBotMessage(world, {
    type: 'stream',
    to: stream.stream_id,
    topic,
    content,
    readBy: [actor.user_id],
  }).message;
}

/** Deletes the previous resolve notice when it is the topic's last message and within the grace period. */
function undoPreviousNotice(world: WorldCtx, stream: Stream, topic: string, graceSeconds: number): boolean {
  const { store } = world;
  const now = world.clock.now();
  const rows = topicMessagesInOrder(store, stream.stream_id, topic);
  const m = rows[rows.length - 1];
  if (!m) return false;
  const isNotice = m.sender_id === store.realm.notification_bot_id && RESOLVE_NOTICE.test(m.content);
  if (!isNotice || now - m.timestamp > graceSeconds) return false;
  deleteMessages(world, [m]);
  return true;
}

export interface MoveNotices {
  plan: EditPlan;
  /** The messages the edit moved. */
  changed: Message[];
  origTopic: string;
  notifyOld: boolean;
  notifyNew: boolean;
  /** RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS: 5 on the development server, 60 in production. */
  resolveUndoGraceSeconds: number;
}

export function sendMoveNotices(world: WorldCtx, actor: User, move: MoveNotices): void {
  const { plan, changed } = move;
  const { store } = world;
  const orig = plan.origStream!;
  const target = plan.targetStream!;
  const newTopic = plan.topic ?? move.origTopic;
  let resolveHandled = false;
  let noticeId: number | null = null;
  if (plan.topic !== undefined && !plan.content && (plan.resolved || plan.unresolved)) {
    resolveHandled = undoPreviousNotice(world, target, newTopic, move.resolveUndoGraceSeconds);
    if (!resolveHandled) {
      const what = plan.resolved ? 'resolved' : 'unresolved';
      noticeId = post(world, actor, target, newTopic, `${mention(actor)} has marked this topic as ${what}.`).id;
      resolveHandled = true;
    }
  }

  const count = changed.length;
  const movedAll = visibleTopicMessages(store, actor, orig.stream_id, move.origTopic).length === 0;
  const who = mention(actor);
  // A pure resolve or unresolve is announced by its own notice, not as a move.
  const renamed = stripResolvedPrefix(move.origTopic) !== stripResolvedPrefix(newTopic);
  if (move.notifyNew && (target !== orig || !resolveHandled || renamed)) {
    const moved = new Set([...changed.map((m) => m.id), noticeId]);
    const preexisting = visibleTopicMessages(store, actor, target.stream_id, newTopic).filter((m) => !moved.has(m.id));
    const from = topicLink(orig, move.origTopic);
    const link = `${store.realm.url}${messageUrl(target.stream_id, target.name, newTopic, plan.message.id)}`;
    const text =
      !preexisting.length && movedAll
        ? `This topic was moved here from ${from} by ${who}.`
        : count === 1
          ? `[A message](${link}) was moved here from ${from} by ${who}.`
          : `${count} messages were moved here from ${from} by ${who}.`;
    post(world, actor, target, newTopic, text);
  }
  if (move.notifyOld) {
    const to = topicLink(target, newTopic);
    const text = movedAll
      ? `This topic was moved to ${to} by ${who}.`
      : count === 1
        ? `A message was moved from this topic to ${to} by ${who}.`
        : `${count} messages were moved from this topic to ${to} by ${who}.`;
    post(world, actor, orig, move.origTopic, text);
  }
}
