// GET /users/me/{stream_id}/topics: a channel's topics, newest first, each named as in its latest
// message. Topics compare case-insensitively; in a channel with protected history only the
// messages the caller received count.
import { channelMessages } from '../../store/store.js';
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
  const latest = new Map<string, TopicEntry>();
  for (const m of channelMessages(store, stream.stream_id)) {
    if (m.type !== 'stream' || !canSeeMessage(store, actor, m)) continue;
    const key = m.topic.toLowerCase();
    const seen = latest.get(key);
    if (!seen || m.id > seen.max_id) latest.set(key, { max_id: m.id, name: m.topic });
  }
  const topics = [...latest.values()].sort((a, b) => b.max_id - a.max_id);
  // Clients that do not handle the empty topic see it under the organization's display name.
  const shown = (name: string) => (name === '' && !allowEmptyTopicName ? ctx.server.emptyTopicDisplayName : name);
  return { topics: topics.map((t) => ({ max_id: t.max_id, name: shown(t.name) })) };
}
