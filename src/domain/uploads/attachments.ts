// GET /attachments and DELETE /attachments/{attachment_id}: the caller's uploads.
import { badRequest } from '../../errors.js';
import type { User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import type { WorldCtx } from '../context.js';
import { addUploadSpace, attachmentDict, uploadSpaceUsed } from './attachment-dict.js';

export function listAttachments(
  store: Store,
  user: User,
): { attachments: Record<string, unknown>[]; upload_space_used: number } {
  const own = store.attachments.filter((a) => a.owner_id === user.user_id);
  return { attachments: own.map((a) => attachmentDict(store, a)), upload_space_used: uploadSpaceUsed(store) };
}

export function removeAttachment(world: WorldCtx, user: User, { attachmentId }: { attachmentId: number }): void {
  const { store, events } = world;
  const attachment = store.attachments.get(attachmentId);
  if (!attachment || attachment.owner_id !== user.user_id) throw badRequest('Invalid attachment');
  store.attachments.remove(attachment);
  addUploadSpace(store, -attachment.size);
  events.publish([user.user_id], {
    type: 'attachment',
    op: 'remove',
    attachment: { id: attachmentId },
    upload_space_used: uploadSpaceUsed(store),
  });
}
