// Who may download an uploaded file, as the real server decides: its uploader, and whoever can
// read a message that links it (any non-guest member when one is in a public channel).
import type { Attachment, User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { canSeeMessage } from '../messages/access.js';
import { isGuest } from '../users/roles.js';

export function mayAccessAttachment(store: Store, user: User, attachment: Attachment): boolean {
  if (attachment.owner_id === user.user_id) return true;
  for (const messageId of attachment.message_ids) {
    const message = store.messages.get(messageId);
    if (!message) continue;
    if (String(user.user_id) in message.flags) return true;
    const stream = message.stream_id === null ? undefined : store.streams.get(message.stream_id);
    if (stream && !stream.invite_only && !isGuest(user)) return true;
    if (canSeeMessage(store, user, message)) return true;
  }
  return false;
}
