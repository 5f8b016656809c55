// POST /streams/{id}/delete_topic: deletes the topic's messages the caller can read, newest
// first, in the real server's batches (each batch its own delete_message events), then resets
// every user's visibility policy for the topic. The real server stops after 50 seconds and
// answers complete=false, leaving the rest (and the policies) for the client's next call; the
// mock stops after a number of batches instead (ServerInfo.deleteTopicBatches), which also
// bounds what one request costs. Before FL 211 a stop was answered with another envelope
// ("partially_completed"), which the mock does not write: there it deletes the whole topic.
import type { Ctx } from '../context.js';
import { canSeeMessage } from './access.js';
import { deleteMessages } from './delete.js';
import { normalizeTopic } from './topics.js';
import { setTopicVisibility, Visibility } from '../user-topics/set-visibility.js';
import { requireAdmin } from '../users/roles.js';
import { topicKey } from '../../store/store.js';
import { accessStreamContentById } from '../channels/access.js';

/** RETENTION_STREAM_MESSAGE_BATCH_SIZE of the real server. */
const BATCH_SIZE = 100;

export function deleteTopic(ctx: Ctx, streamId: number, topicName: string): { complete: boolean } {
  const { store, actor } = ctx;
  requireAdmin(actor);
  const stream = accessStreamContentById(store, actor, streamId);
  const topic = normalizeTopic(topicName, ctx.server.emptyTopicDisplayName, (b) => ctx.supports(b));
  const inTopic = () => [...store.messages.group('topic', topicKey(stream.stream_id, topic))];
  const messages = inTopic()
    .filter((m) => canSeeMessage(store, actor, m))
    .sort((a, b) => b.id - a.id);
  const limit = ctx.hasField('DeleteTopicResult', 'complete') ? ctx.server.deleteTopicBatches * BATCH_SIZE : Infinity;
  for (let i = 0; i < Math.min(messages.length, limit); i += BATCH_SIZE) {
    deleteMessages(ctx, messages.slice(i, Math.min(i + BATCH_SIZE, limit)), actor.user_id);
  }
  if (messages.length > limit) return { complete: false };
  // With protected history, others may still have messages of the topic the caller could not see.
  const remaining = inTopic();
  for (const row of store.userTopics.filter(
    (u) => u.stream_id === stream.stream_id && u.topic.toLowerCase() === topic.toLowerCase(),
  )) {
    const user = store.users.get(row.user_id)!;
    if (remaining.some((m) => canSeeMessage(store, user, m))) continue;
    setTopicVisibility(ctx, row.user_id, { streamId: stream.stream_id, topic: row.topic, policy: Visibility.none });
  }
  return { complete: true };
}
