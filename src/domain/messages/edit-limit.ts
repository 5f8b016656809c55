// Who may edit a message's content, and until when: the message edit's own check, and the check
// of typing notifications while editing (typing/edit-typing.ts).
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';

/** Grace period the real server allows past the edit limit (requests in flight). */
const EDIT_LIMIT_BUFFER_SECONDS = 20;

/** The checks for editing a message's content (who, and until when). */
export function checkCanEditContent(store: Store, user: User, message: Message, now: number): void {
  const { realm } = store;
  if (!realm.allow_message_editing) throw badRequest('Your organization has turned off message editing');
  if (message.sender_id !== user.user_id) throw badRequest("You don't have permission to edit this message");
  const limit = realm.message_content_edit_limit_seconds;
  if (limit !== null && now - message.timestamp > limit + EDIT_LIMIT_BUFFER_SECONDS) {
    throw badRequest('The time limit for editing this message has passed');
  }
}
