// Where an organization setting lives in the state: the settings the mock enforces are fields of
// the realm itself, the ones it only shows are in shown_settings (see state.ts). A change is
// written where the setting already is, so that register shows it the same way as before.
import type { Store } from '../../store/store.js';
import type { Realm } from '../../store/state.js';
import { newerSettingDefault } from './newer-settings.js';

const fieldsOf = (realm: Realm) => realm as unknown as Record<string, unknown>;

/** Enforced settings a fixture may leave out of the realm (a default applies), yet written there. */
const OPTIONAL_OWN_FIELDS: ReadonlySet<string> = new Set(['email_address_visibility']);

const isOwnField = (realm: Realm, name: string) => Object.hasOwn(realm, name) || OPTIONAL_OWN_FIELDS.has(name);

export function currentSetting(realm: Realm, name: string): unknown {
  return isOwnField(realm, name) ? fieldsOf(realm)[name] : realm.shown_settings?.[name];
}

/** currentSetting, or for a newer setting the fixture leaves out, its default (newer-settings.ts). */
export function settingValue(store: Store, name: string): unknown {
  return currentSetting(store.realm, name) ?? newerSettingDefault(store, name);
}

export function storeSettings(store: Store, values: Record<string, unknown>): void {
  const realm = store.realm;
  const own: Record<string, unknown> = {};
  const shown: Record<string, unknown> = { ...realm.shown_settings };
  for (const [name, value] of Object.entries(values)) {
    if (isOwnField(realm, name) && name !== 'shown_settings') own[name] = value;
    else shown[name] = value;
  }
  store.updateRealm({ ...own, shown_settings: shown } as Partial<Realm>);
}
