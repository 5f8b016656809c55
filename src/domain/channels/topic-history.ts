// GET /users/me/{stream_id}/topics: a channel's topics, newest first, each named as in its latest
// message. Topics compare case-insensitively; in a channel with protected history only the
// messages the caller received count.
import { channelTopics } from '../../store/store.js';
import type { Ctx } from '../context.js';
import { canSeeMessage } from '../messages/access.js';
import { accessStreamContentById } from './access.js';

export interface TopicEntry {
  max_id: number;
  name: string;
}

export function streamTopics(ctx: Ctx, streamId: number, allowEmptyTopicName: boolean): { topics: TopicEntry[] } {
  const { store, actor } = ctx;
  const stream = accessStreamContentById(store, actor, streamId);
  // Each topic's newest message the caller may see, looked for from its end: one message per
  // topic where the history is readable, not every message of the channel.
  const topics: TopicEntry[] = [];
  for (const messages of channelTopics(store, stream.stream_id)) {
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i];
      if (!canSeeMessage(store, actor, m)) continue;
      topics.push({ max_id: m.id, name: m.topic });
      break;
    }
  }
  topics.sort((a, b) => b.max_id - a.max_id);
  // Clients that do not handle the empty topic see it under the organization's display name.
  const shown = (name: string) => (name === '' && !allowEmptyTopicName ? ctx.server.emptyTopicDisplayName : name);
  return { topics: topics.map((t) => ({ max_id: t.max_id, name: shown(t.name) })) };
}
