// The `alert_words` section of the registration state.
import type { User } from '../../store/state.js';

export function alertWordState(user: User): Record<string, unknown> {
  return { alert_words: [...(user.alert_words ?? [])] };
}
