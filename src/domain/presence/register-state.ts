// The `presence` section of the registration state: every user's presence, as the ping answers it.
import type { Store } from '../../store/store.js';
import { realmPresence } from './format.js';

export interface PresenceRequest {
  slim: boolean;
  historyLimitDays?: number;
  /** Mock-clock time in milliseconds (server_timestamp is fractional seconds, as from the real server). */
  nowMs: number;
  /** Below feature level 163: keyed by the API emails the organization's setting gives. */
  organization?: boolean;
}

/** `presences` as the ping answers them without last_update_id (src/domain/presence/format.ts). */
export function presenceState(store: Store, req: PresenceRequest): Record<string, unknown> {
  return realmPresence(store, {
    slim: req.slim,
    historyLimitDays: req.historyLimitDays,
    nowMs: req.nowMs,
    organization: req.organization,
  });
}
