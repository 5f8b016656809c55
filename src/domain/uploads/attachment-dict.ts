// An attachment as the API shows it (GET /attachments, attachment events), and the space the
// organization's uploads take.
import type { Attachment } from '../../store/state.js';
import type { Store } from '../../store/store.js';

export function attachmentDict(store: Store, attachment: Attachment): Record<string, unknown> {
  const { id, name, path_id, size, create_time } = attachment;
  const messages = attachment.message_ids.flatMap((messageId) => {
    const message = store.messages.get(messageId);
    return message ? [{ id: messageId, date_sent: message.timestamp * 1000 }] : [];
  });
  return { id, name, path_id, size, create_time, messages };
}

export function uploadSpaceUsed(store: Store): number {
  let total = 0;
  for (const a of store.attachments.all()) total += a.size;
  return total;
}

/** Tells the owner's clients of a new or changed attachment (op add or update). */
export function notifyAttachment(world: { store: Store; events: { publish(ids: Iterable<number>, e: Record<string, unknown>): void } }, op: 'add' | 'update', attachment: Attachment): void {
  const { store, events } = world;
  events.publish([attachment.owner_id], { type: 'attachment', op, attachment: attachmentDict(store, attachment), upload_space_used: uploadSpaceUsed(store) });
}
