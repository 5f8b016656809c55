// The user's topic visibility policies in the registration state: `user_topics`, and for clients
// of servers older than user_topic, `muted_topics`.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import type { TopicShown } from '../context.js';

/** `muted_topics` (before user_topic): [channel name, topic, when muted] of each muted topic. */
export function mutedTopicState(store: Store, actor: User, shown: TopicShown): Record<string, unknown> {
  const muted = store.userTopics.filter((t) => t.user_id === actor.user_id && t.visibility_policy === 1);
  return {
    muted_topics: muted
      .filter((t) => store.streams.get(t.stream_id))
      .map((t) => [store.streams.get(t.stream_id)!.name, shown(t.topic), t.last_updated]),
  };
}

export function userTopicState(store: Store, actor: User, shown: TopicShown): Record<string, unknown> {
  const mine = store.userTopics.filter((t) => t.user_id === actor.user_id && t.visibility_policy !== 0);
  return {
    user_topics: mine.map((t) => ({
      stream_id: t.stream_id,
      topic_name: shown(t.topic),
      last_updated: t.last_updated,
      visibility_policy: t.visibility_policy,
    })),
  };
}
