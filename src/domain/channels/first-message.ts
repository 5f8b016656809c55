// A channel's first_message_id as it changes after a deletion or a move. The real server
// stores it and, when a deletion takes the channel's oldest message, sends the users told of
// the deletion a stream/update with the new value (zerver/actions/message_delete.py,
// check_update_first_message_id; queues of FL 256 and later get it: EventKinds in events.yaml). The mock derives the value
// from the messages (channels/activity.ts), so a move that takes a channel's oldest message away,
// or brings an older one in, changes it too: the same event tells the users told of the move,
// where the real server's stored value would stay as it was.
import { channelMessages, type Store } from '../../store/store.js';
import type { Stream } from '../../store/state.js';
import type { WorldCtx } from '../context.js';

/** The ID of the channel's oldest message: the first of its messages, which are kept in ID order. */
export function firstMessageId(store: Store, streamId: number): number | null {
  return channelMessages(store, streamId)[0]?.id ?? null;
}

/** Sends the stream/update event when the channel's first message is no longer `before`. */
export function tellFirstMessageId(
  world: WorldCtx,
  stream: Stream,
  before: number | null,
  audience: Iterable<number>,
): void {
  const value = firstMessageId(world.store, stream.stream_id);
  if (value === before) return;
  world.events.publish(audience, {
    type: 'stream',
    op: 'update',
    property: 'first_message_id',
    value,
    stream_id: stream.stream_id,
    name: stream.name,
  });
}
