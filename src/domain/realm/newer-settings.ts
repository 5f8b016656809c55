// Organization settings of the newest servers (feature levels 392 to 477) kept in shown_settings,
// and the value an organization has when a fixture or snapshot made before them leaves them out:
// the real server's model defaults, except send_channel_events_messages, which is on as the
// notices were unconditional before it (and are in the development organization).
// docs/decisions/newest-register-fields.md lists them with their levels.
import { createHash } from 'node:crypto';
import type { Store } from '../../store/store.js';
import { systemGroupId } from '../group-settings/membership.js';

const SCALAR_DEFAULTS: Readonly<Record<string, unknown>> = {
  require_e2ee_push_notifications: false,
  welcome_message_custom_text: '',
  send_channel_events_messages: true,
  owner_full_content_access: false,
  default_avatar_source: 'J',
  media_preview_size: 100,
};

/** Group settings, by the system group a new organization gives them. */
const GROUP_DEFAULTS: Readonly<Record<string, string>> = {
  can_set_delete_message_policy_group: 'role:moderators',
  can_set_topics_policy_group: 'role:members',
  workplace_users_group: 'role:everyone',
};

/** A stable stand-in for the organization's UUID: the same organization always gets the same one. */
function derivedUuid(store: Store): string {
  const hex = createHash('md5').update(`${store.realm.id}:${store.realm.url}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The default of a newer setting, or undefined for any other name. */
export function newerSettingDefault(store: Store, name: string): unknown {
  if (Object.hasOwn(SCALAR_DEFAULTS, name)) return SCALAR_DEFAULTS[name];
  if (Object.hasOwn(GROUP_DEFAULTS, name)) return systemGroupId(store, GROUP_DEFAULTS[name]);
  if (name === 'uuid') return derivedUuid(store);
  return undefined;
}

/** Every newer setting the organization's shown_settings leave out, with its default. */
export function missingNewerSettings(store: Store): Record<string, unknown> {
  const shown = store.realm.shown_settings ?? {};
  const out: Record<string, unknown> = {};
  for (const name of [...Object.keys(SCALAR_DEFAULTS), ...Object.keys(GROUP_DEFAULTS), 'uuid']) {
    if (shown[name] === undefined) out[name] = newerSettingDefault(store, name);
  }
  return out;
}
