// The user's topic visibility policies in the registration state: `user_topics`, and for clients
// of servers older than user_topic, `muted_topics`.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import type { TopicShown } from '../context.js';

/** [channel name, topic, when muted] of each topic the user muted: the legacy `muted_topics` list. */
export function mutedTopicList(
  store: Store,
  userId: number,
  shown: TopicShown = (t) => t,
): Array<[string, string, number]> {
  const muted = store.userTopics.filter((t) => t.user_id === userId && t.visibility_policy === 1);
  return muted
    .filter((t) => store.streams.get(t.stream_id))
    .map((t) => [store.streams.get(t.stream_id)!.name, shown(t.topic), t.last_updated]);
}

/** `muted_topics` (before user_topic). */
export function mutedTopicState(store: Store, actor: User, shown: TopicShown): Record<string, unknown> {
  return { muted_topics: mutedTopicList(store, actor.user_id, shown) };
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
