// The `muted_users` section of the registration state.
import type { User } from '../../store/state.js';

export function mutedUserState(user: User): Record<string, unknown> {
  return { muted_users: (user.muted_users ?? []).map((m) => ({ id: m.id, timestamp: m.timestamp })) };
}
