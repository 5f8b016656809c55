// An attachment as the API shows it (GET /attachments, attachment events), and the space the
// organization's uploads take.
import type { Attachment } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { DerivedSlot } from '../../store/derived.js';

export function attachmentDict(store: Store, attachment: Attachment): Record<string, unknown> {
  const { id, name, path_id, size, create_time } = attachment;
  const messages = attachment.message_ids.flatMap((messageId) => {
    const message = store.messages.get(messageId);
    return message ? [{ id: messageId, date_sent: message.timestamp * 1000 }] : [];
  });
  return { id, name, path_id, size, create_time, messages };
}

/**
 * The organization's total, kept per store: summing every upload on each upload made uploads
 * slower the more there were. It is summed anew after a whole new state (reset, import) and
 * otherwise moved by each upload and deletion (addUploadSpace), the only changes of sizes.
 */
const spaceSlot = new DerivedSlot(() => ({ epoch: '', total: 0 }));

export function uploadSpaceUsed(store: Store): number {
  const space = store.derived.of(spaceSlot);
  const epoch = store.partsVersion([]);
  if (space.epoch !== epoch) {
    space.total = 0;
    for (const a of store.attachments.all()) space.total += a.size;
    space.epoch = epoch;
  }
  return space.total;
}

/** After a file of `bytes` was stored (or, negative, deleted). */
export function addUploadSpace(store: Store, bytes: number): void {
  const space = store.derived.of(spaceSlot);
  if (space.epoch === store.partsVersion([])) space.total += bytes;
}

/** Tells the owner's clients of a new or changed attachment (op add or update). */
export function notifyAttachment(
  world: { store: Store; events: { publish(ids: Iterable<number>, e: Record<string, unknown>): void } },
  op: 'add' | 'update',
  attachment: Attachment,
): void {
  const { store, events } = world;
  events.publish([attachment.owner_id], {
    type: 'attachment',
    op,
    attachment: attachmentDict(store, attachment),
    upload_space_used: uploadSpaceUsed(store),
  });
}
