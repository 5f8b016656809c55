// Data exports as the API shows them (GET /export/realm and realm_export events), and the
// event itself, sent to every administrator and owner who is a person.
import type { Store } from '../../store/store.js';
import type { RealmExportRow } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { humanAdminIds } from '../users/access.js';

export const exportRows = (store: Store): RealmExportRow[] => store.realm.exports ?? [];

/** The archive's URL (absolute, as the real server's local storage gives it). */
const exportUrl = (store: Store, row: RealmExportRow) =>
  `${store.realm.url}/user_avatars/exports/${store.realm.id}/${row.path}`;

function exportForApi(store: Store, row: RealmExportRow): Record<string, unknown> {
  return {
    id: row.id,
    acting_user_id: row.acting_user_id,
    export_time: row.date_requested,
    // An export from a previous server has no archive here, so no URL either.
    export_url: row.status === 'succeeded' && !row.from_prior_server ? exportUrl(store, row) : null,
    deleted_timestamp: row.date_deleted,
    failed_timestamp: row.date_failed,
    pending: row.status === 'requested',
    export_type: row.type,
    export_from_prior_server: row.from_prior_server === true,
  };
}

export function listExports(store: Store): Array<Record<string, unknown>> {
  return [...exportRows(store)].sort((a, b) => a.id - b.id).map((row) => exportForApi(store, row));
}

/** The whole list, to the administrators (the real server's notify_realm_export). */
export function notifyRealmExport(world: WorldCtx): void {
  world.events.publish(humanAdminIds(world.store), { type: 'realm_export', exports: listExports(world.store) });
}

/** Replaces one export row. */
export function updateExportRow(world: WorldCtx, row: RealmExportRow, patch: Partial<RealmExportRow>): RealmExportRow {
  const updated = { ...row, ...patch };
  world.store.updateRealm({ exports: exportRows(world.store).map((r) => (r.id === row.id ? updated : r)) });
  return updated;
}
