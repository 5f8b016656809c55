// Who is told about a change to existing messages (reactions, edits, deletions): everyone who
// received them, plus the channel's subscribers when its history is open to them (they may be
// reading it without having received the message).
import type { Store } from '../../store/store.js';
import type { Message } from '../../store/state.js';
import { subscriberIds } from '../channels/access.js';

export function audienceOf(store: Store, messages: readonly Message[]): Set<number> {
  const ids = new Set<number>();
  const channels = new Set<number>();
  for (const m of messages) {
    for (const id of Object.keys(m.flags)) ids.add(Number(id));
    for (const id of m.recipient_ids) ids.add(id);
    if (m.type === 'stream') channels.add(m.stream_id!);
  }
  for (const streamId of channels) {
    const stream = store.streams.get(streamId);
    if (stream && (!stream.invite_only || stream.history_public_to_subscribers)) {
      for (const id of subscriberIds(store, streamId)) ids.add(id);
    }
  }
  for (const id of ids) if (!store.users.get(id)?.is_active) ids.delete(id);
  return ids;
}
