// The `stream` `delete` event in the form of the queue's level (ChannelDeletion in the
// description): from FL 343 the channels' IDs (`stream_ids`, and `streams` holding only each
// `stream_id`); before it, the whole channel objects and no `stream_ids`. Each form is built once
// per change, for every queue that takes it.
import type { Store } from '../../store/store.js';
import type { Stream } from '../../store/state.js';
import type { QueueTraits } from '../context.js';
import { channelActivity } from './activity.js';
import { streamToDict } from './stream-dict.js';

type Event = Record<string, unknown>;

/** Gives, for a queue, the deletion event of `streams` in the form its level takes. */
export function channelDeletionFor(store: Store, streams: Stream[], now: number): (queue?: QueueTraits) => Event {
  const newest: Event = {
    type: 'stream',
    op: 'delete',
    streams: streams.map((s) => ({ stream_id: s.stream_id })),
    stream_ids: streams.map((s) => s.stream_id),
  };
  let older: Event | undefined;
  return (queue) => {
    if (queue?.variantOf?.('ChannelDeletion', 'streams') !== 'channels') return newest;
    if (!older) {
      const activity = channelActivity(store, now);
      older = { type: 'stream', op: 'delete', streams: streams.map((s) => streamToDict(store, s, activity)) };
    }
    return older;
  };
}
