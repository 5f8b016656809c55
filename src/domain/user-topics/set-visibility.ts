// The one action that changes a user's visibility policy for a topic, whoever asks: the user
// (POST /user_topics, the deprecated muted_topics), or a send that follows or unmutes the topic
// for its sender or for mentioned users. When the policy changes, the user's clients get a
// `user_topic` event and the legacy `muted_topics` event with the whole list of muted topics (the queue
// drops it for clients that also asked for user_topic).
import { userTopicKey } from '../../store/store.js';
import type { WorldCtx } from '../context.js';
import { mutedTopicList } from './register-state.js';

export const Visibility = { none: 0, muted: 1, unmuted: 2, followed: 3 } as const;

export interface TopicVisibility {
  streamId: number;
  topic: string;
  /** 0 none (the row is removed), 1 muted, 2 unmuted, 3 followed. */
  policy: number;
}

export function setTopicVisibility(
  world: WorldCtx,
  userId: number,
  { streamId, topic, policy }: TopicVisibility,
): void {
  const { store } = world;
  const now = world.clock.now();
  const row = store.userTopics.get(userTopicKey(userId, streamId, topic));
  // Setting the policy a topic already has (or removing one it does not have) changes nothing:
  // the real server keeps the row's last_updated and sends no event.
  if ((row?.visibility_policy ?? Visibility.none) === policy) return;
  if (policy === Visibility.none) {
    if (row) store.userTopics.remove(row);
  } else if (row) {
    store.userTopics.update(row, { visibility_policy: policy, last_updated: now });
  } else {
    store.userTopics.insert({
      user_id: userId,
      stream_id: streamId,
      topic,
      visibility_policy: policy,
      last_updated: now,
    });
  }
  // The real server still sends the list every client before user_topic (FL 134) reads, first.
  world.events.publish([userId], { type: 'muted_topics', muted_topics: mutedTopicList(store, userId) });
  world.events.publish([userId], {
    type: 'user_topic',
    stream_id: streamId,
    topic_name: topic,
    last_updated: now,
    visibility_policy: policy,
  });
}
