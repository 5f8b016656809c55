// The `scheduled_messages` section of the registration state: the user's pending scheduled messages.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { scheduledMessageDict } from './schedule.js';
import type { TopicShown } from '../context.js';

export function scheduledMessageState(store: Store, actor: User, shown: TopicShown): Record<string, unknown> {
  const pending = store.scheduledMessages.filter(
    (m) => m.sender_id === actor.user_id && m.delivered_message_id === null,
  );
  return {
    scheduled_messages: pending
      .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp)
      .map((m) => {
        const dict = scheduledMessageDict(m);
        if (m.type === 'stream') dict.topic = shown(m.topic);
        return dict;
      }),
  };
}
