// Parts of the registration state about people: presence, the user's muted users and alert
// words, and the organization's custom profile fields.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { PROFILE_FIELD_TYPES } from '../realm/profile-field-types.js';
import { realmPresence } from '../presence/format.js';

export interface PresenceRequest {
  slim: boolean;
  historyLimitDays?: number;
  /** Mock-clock time in milliseconds (server_timestamp is fractional seconds, as from the real server). */
  nowMs: number;
}

/** `presences` as the ping answers them without last_update_id (src/domain/presence/format.ts). */
export function presenceState(store: Store, req: PresenceRequest): Record<string, unknown> {
  return realmPresence(store, { slim: req.slim, historyLimitDays: req.historyLimitDays, nowMs: req.nowMs });
}

export function mutedUserState(user: User): Record<string, unknown> {
  return { muted_users: (user.muted_users ?? []).map((m) => ({ id: m.id, timestamp: m.timestamp })) };
}

export function alertWordState(user: User): Record<string, unknown> {
  return { alert_words: [...(user.alert_words ?? [])] };
}

/** Clients without the pronouns type get pronouns fields as short text, as from the real server. */
export function customProfileFieldState(store: Store): Record<string, unknown> {
  const fields = [...(store.realm.custom_profile_fields ?? [])].sort((a, b) => a.order - b.order);
  return {
    custom_profile_fields: fields.map((f) => {
      const dict: Record<string, unknown> = {
        id: f.id, name: f.name, type: f.type, hint: f.hint, field_data: f.field_data, order: f.order,
        required: f.required, editable_by_user: f.editable_by_user,
      };
      // The real server names the flag only when it is set.
      if (f.display_in_profile_summary) dict.display_in_profile_summary = true;
      return dict;
    }),
    custom_profile_field_types: structuredClone(PROFILE_FIELD_TYPES),
  };
}
