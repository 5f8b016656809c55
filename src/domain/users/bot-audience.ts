// Who hears about a bot's private details (realm_bot events): its owner and the administrators,
// as the real server's bot_owner_user_ids.
import type { User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { isAdmin } from './roles.js';

export function botAudience(store: Store, bot: User): number[] {
  return store.users.filter((u) => u.is_active && (isAdmin(u) || u.user_id === bot.bot_owner_id)).map((u) => u.user_id);
}
