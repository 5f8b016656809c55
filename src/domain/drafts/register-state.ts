// The `drafts` section of the registration state.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import type { TopicShown } from '../context.js';

export function draftState(store: Store, actor: User, shown: TopicShown): Record<string, unknown> {
  return {
    drafts: store.drafts
      .filter((d) => d.user_id === actor.user_id)
      .map((d) => ({
        id: d.id,
        type: d.type,
        to: [...d.to],
        topic: d.type === 'stream' ? shown(d.topic) : d.topic,
        content: d.content,
        timestamp: d.timestamp,
      })),
  };
}
