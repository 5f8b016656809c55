// POST /streams/{id}/delete_topic: deletes the topic's messages the caller can read, newest
// first, in the real server's batches (each batch its own delete_message events), then resets
// every user's visibility policy for the topic. The real server gives up after 50 seconds and
// answers complete=false; the mock always finishes within the request.
import type { Ctx } from '../context.js';
import { canSeeMessage } from '../messages/access.js';
import { deleteMessages } from '../messages/delete.js';
import { normalizeTopic } from '../messages/topics.js';
import { setTopicVisibility, Visibility } from '../user-topics/set-visibility.js';
import { requireAdmin } from '../users/roles.js';
import { accessStreamContentById } from './access.js';

/** RETENTION_STREAM_MESSAGE_BATCH_SIZE of the real server. */
const BATCH_SIZE = 100;

export function deleteTopic(ctx: Ctx, streamId: number, topicName: string): { complete: boolean } {
  const { store, actor } = ctx;
  requireAdmin(actor);
  const stream = accessStreamContentById(store, actor, streamId);
  const topic = normalizeTopic(topicName, ctx.server.emptyTopicDisplayName, (b) => ctx.supports(b)).toLowerCase();
  const messages = store.messages
    .filter((m) => m.type === 'stream' && m.stream_id === stream.stream_id && m.topic.toLowerCase() === topic && canSeeMessage(store, actor, m))
    .sort((a, b) => b.id - a.id);
  for (let i = 0; i < messages.length; i += BATCH_SIZE) deleteMessages(ctx, messages.slice(i, i + BATCH_SIZE));
  // With protected history, others may still have messages of the topic the caller could not see.
  const remaining = new Set(store.messages.filter((m) => m.stream_id === stream.stream_id && m.topic.toLowerCase() === topic).map((m) => m.id));
  for (const row of store.userTopics.filter((u) => u.stream_id === stream.stream_id && u.topic.toLowerCase() === topic)) {
    if (remaining.size && store.messages.find((m) => remaining.has(m.id) && canSeeMessage(store, store.users.get(row.user_id)!, m))) continue;
    setTopicVisibility(ctx, row.user_id, { streamId: stream.stream_id, topic: row.topic, policy: Visibility.none });
  }
  return { complete: true };
}
