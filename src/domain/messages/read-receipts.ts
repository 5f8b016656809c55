// GET /messages/{message_id}/read_receipts: who read a message. Privacy decides most of it, as
// on the real server: a user's send_read_receipts setting, and muting both ways (a muter who
// reads at once would otherwise give the muting away). The sender is left out: they read it by
// writing it.
import { badRequest } from '../../errors.js';
import type { User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { accessMessage } from './access.js';

const mutes = (user: User, otherId: number) => (user.muted_users ?? []).some((m) => m.id === otherId);

export function readReceipts(store: Store, caller: User, messageId: number): number[] {
  const message = accessMessage(store, caller, messageId);
  if (store.realm.shown_settings?.enable_read_receipts === false)
    throw badRequest('Read receipts are disabled in this organization.');
  const readers: number[] = [];
  for (const [key, flags] of Object.entries(message.flags)) {
    const reader = store.users.get(Number(key));
    if (!reader || reader.user_id === message.sender_id || !reader.is_active || !flags.includes('read')) continue;
    if (!reader.settings.send_read_receipts || mutes(reader, caller.user_id) || mutes(caller, reader.user_id)) continue;
    readers.push(reader.user_id);
  }
  return readers.sort((a, b) => a - b);
}
