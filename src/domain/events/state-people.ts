// Parts of the registration state about people: presence, the user's muted users and alert
// words, and the organization's custom profile fields.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
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

/** The field types the server knows, by their constant names (facts of the real server). */
const FIELD_TYPES: Record<string, { id: number; name: string }> = {
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Users' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};

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
    custom_profile_field_types: structuredClone(FIELD_TYPES),
  };
}
