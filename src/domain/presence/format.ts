// Presence as clients read it: the modern form (user ID -> times) and the legacy form (email ->
// one "website" client and the aggregate), and the organization's presence the way the ping,
// GET /realm/presence and POST /register answer it.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { SERVER_PRESENCE } from './timings.js';
import { organizationDisplayEmail } from '../users/email-visibility.js';

type Presence = NonNullable<User['presence']>;

export function modernPresence(p: Presence): { active_timestamp: number; idle_timestamp: number } {
  return { active_timestamp: p.active_timestamp, idle_timestamp: p.idle_timestamp };
}

/** The legacy entry: active while the last activity is close enough to the last connection. */
export function legacyClientPresence(p: Presence): {
  client: 'website';
  status: 'active' | 'idle';
  timestamp: number;
  pushable: false;
} {
  const active = p.active_timestamp + SERVER_PRESENCE.legacyActivityOffsetSeconds >= p.idle_timestamp;
  return {
    client: 'website',
    status: active ? 'active' : 'idle',
    timestamp: active ? p.active_timestamp : p.idle_timestamp,
    pushable: false,
  };
}

function legacyPresence(p: Presence): Record<string, unknown> {
  const website = legacyClientPresence(p);
  return { website, aggregated: { client: website.client, status: website.status, timestamp: website.timestamp } };
}

export interface RealmPresenceQuery {
  slim: boolean;
  /** Only presence changed after this update ID (the client has the rest). */
  lastUpdateId?: number;
  historyLimitDays?: number;
  nowMs: number;
  /** Below feature level 163: keyed by the API emails the organization's setting gives. */
  organization?: boolean;
}

/** The real server leaves out users not connected for two weeks unless told otherwise. */
const DEFAULT_HISTORY_DAYS = 14;

/** `presences`, `server_timestamp` and `presence_last_update_id` of the organization's people. */
export function realmPresence(
  store: Store,
  q: RealmPresenceQuery,
): { presences: Record<string, unknown>; server_timestamp: number; presence_last_update_id: number } {
  const presences: Record<string, unknown> = {};
  // With presence off the real server answers no presence and -1, whatever the client had.
  if (store.realm.shown_settings?.presence_disabled)
    return { presences, server_timestamp: q.nowMs / 1000, presence_last_update_id: -1 };
  let newest: number | null = null;
  if (q.historyLimitDays !== 0) {
    // A client that already has data (last_update_id > 0) needs no time limit: the ID is one.
    const limited = q.lastUpdateId === undefined || q.lastUpdateId <= 0;
    const since = Math.floor(q.nowMs / 1000) - (q.historyLimitDays ?? DEFAULT_HISTORY_DAYS) * 86400;
    for (const u of store.users.all()) {
      const p = u.presence;
      if (!p || !u.is_active || u.is_bot) continue;
      const updateId = p.last_update_id ?? 0;
      if (q.lastUpdateId !== undefined && updateId <= q.lastUpdateId) continue;
      if (limited && p.idle_timestamp < since) continue;
      newest = Math.max(newest ?? updateId, updateId);
      const key = q.slim ? String(u.user_id) : q.organization ? organizationDisplayEmail(store.realm, u) : u.email;
      presences[key] = q.slim ? modernPresence(p) : legacyPresence(p);
    }
  }
  return { presences, server_timestamp: q.nowMs / 1000, presence_last_update_id: newest ?? q.lastUpdateId ?? -1 };
}
