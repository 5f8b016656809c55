// Messages that link uploads: sending or editing a message whose rendering links a file under
// /user_uploads/ attaches the file to it (when the sender may see the file), and an edit that drops
// the link detaches it. The owner's clients get an attachment update event each time.
import type { Attachment, Message, User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { mayAccessAttachment } from './access.js';
import { attachmentDict, notifyAttachment } from './attachment-dict.js';

const UPLOAD_LINK = /href="(?:[^"]*?)\/user_uploads\/(\d+\/[^"?#]+)"/g;

/** The path IDs a rendered message links, each once. */
function linkedPathIds(renderedHtml: string): Set<string> {
  const ids = new Set<string>();
  if (!renderedHtml.includes('/user_uploads/')) return ids;
  for (const m of renderedHtml.matchAll(UPLOAD_LINK)) {
    try {
      ids.add(decodeURIComponent(m[1]));
    } catch {
      /* a link that is not a valid URL is no upload */
    }
  }
  return ids;
}

function setMessages(world: WorldCtx, attachment: Attachment, messageIds: number[]): void {
  world.store.attachments.update(attachment, { message_ids: messageIds });
  notifyAttachment(world, 'update', attachment);
}

/** Attaches the uploads a new message links (those its sender may see). */
export function claimAttachments(world: WorldCtx, sender: User, message: Message): void {
  for (const pathId of linkedPathIds(message.rendered_content)) {
    const attachment = world.store.attachments.by('path_id', pathId);
    if (!attachment || !mayAccessAttachment(world.store, sender, attachment)) continue;
    setMessages(
      world,
      attachment,
      [...attachment.message_ids, message.id].sort((a, b) => a - b),
    );
  }
}

/**
 * After an edit of `message`'s content from `oldHtml`: uploads it links now are attached, those
 * it no longer links are detached. Answers the editor's own uploads that no message links any
 * more (the edit's detached_uploads).
 */
export function relinkAttachments(
  world: WorldCtx,
  editor: User,
  message: Message,
  oldHtml: string,
): Record<string, unknown>[] {
  const { store } = world;
  const before = linkedPathIds(oldHtml);
  const after = linkedPathIds(message.rendered_content);
  const detached: Record<string, unknown>[] = [];
  for (const pathId of before) {
    if (after.has(pathId)) continue;
    const attachment = store.attachments.by('path_id', pathId);
    if (!attachment || !attachment.message_ids.includes(message.id)) continue;
    setMessages(
      world,
      attachment,
      attachment.message_ids.filter((id) => id !== message.id),
    );
    if (attachment.message_ids.length === 0 && attachment.owner_id === editor.user_id)
      detached.push(attachmentDict(store, attachment));
  }
  for (const pathId of after) {
    const attachment = store.attachments.by('path_id', pathId);
    if (!attachment || attachment.message_ids.includes(message.id) || !mayAccessAttachment(store, editor, attachment))
      continue;
    setMessages(
      world,
      attachment,
      [...attachment.message_ids, message.id].sort((a, b) => a - b),
    );
  }
  return detached;
}

/** Forgets deleted messages in the uploads that linked them (the files stay). */
export function forgetDeletedMessages(world: WorldCtx, messageIds: ReadonlySet<number>): void {
  for (const attachment of world.store.attachments.all()) {
    if (attachment.message_ids.some((id) => messageIds.has(id))) {
      setMessages(
        world,
        attachment,
        attachment.message_ids.filter((id) => !messageIds.has(id)),
      );
    }
  }
}
