// Data exports as the API shows them (GET /export/realm and realm_export events), and the
// event itself, sent to every administrator and owner who is a person.
import type { Store } from '../../store/store.js';
import type { RealmExportRow } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { publishByForm } from '../events/publish.js';
import { humanAdminIds } from '../users/access.js';
import { ENUM_VALUES } from '../../contract/generated/params.js';

/**
 * How `export_type` is given (the RealmExport schema's forms): by code (1, 2) before FL 449, by
 * name from it.
 */
export type ExportTypeForm = 'code' | 'slug';
/** The number behind each export type's name: the parameter's `x-enum-values` in the description. */
const CODES = ENUM_VALUES['export-realm'].export_type;
type ExportSlug = keyof typeof CODES;
type ExportType = (typeof CODES)[ExportSlug];
const SLUGS = Object.fromEntries(Object.entries(CODES).map(([slug, code]) => [code, slug])) as Record<
  ExportType,
  ExportSlug
>;

/** The export type a request names, by code or (from FL 449) by name, as the code the state keeps. */
export const exportTypeCode = (given: 1 | 2 | ExportSlug): ExportType =>
  typeof given === 'number' ? given : CODES[given];

export const exportRows = (store: Store): RealmExportRow[] => store.realm.exports ?? [];

/** The archive's URL (absolute, as the real server's local storage gives it). */
const exportUrl = (store: Store, row: RealmExportRow) =>
  `${store.realm.url}/user_avatars/exports/${store.realm.id}/${row.path}`;

function exportForApi(store: Store, row: RealmExportRow, form: ExportTypeForm): Record<string, unknown> {
  return {
    id: row.id,
    acting_user_id: row.acting_user_id,
    export_time: row.date_requested,
    // An export from a previous server has no archive here, so no URL either.
    export_url: row.status === 'succeeded' && !row.from_prior_server ? exportUrl(store, row) : null,
    deleted_timestamp: row.date_deleted,
    failed_timestamp: row.date_failed,
    pending: row.status === 'requested',
    export_type: form === 'code' ? row.type : SLUGS[row.type],
    export_from_prior_server: row.from_prior_server === true,
  };
}

/** `form`: that of the level asked at (the newest by default). */
export function listExports(store: Store, form: ExportTypeForm = 'slug'): Array<Record<string, unknown>> {
  return [...exportRows(store)].sort((a, b) => a.id - b.id).map((row) => exportForApi(store, row, form));
}

/** The whole list, to the administrators (the real server's notify_realm_export), in each queue's form. */
export function notifyRealmExport(world: WorldCtx): void {
  const event = (form: string) => ({ type: 'realm_export', exports: listExports(world.store, form as ExportTypeForm) });
  publishByForm(
    world,
    humanAdminIds(world.store),
    event('slug'),
    { schema: 'RealmExport', field: 'export_type', newest: 'slug' },
    event,
  );
}

/** Replaces one export row. */
export function updateExportRow(world: WorldCtx, row: RealmExportRow, patch: Partial<RealmExportRow>): RealmExportRow {
  const updated = { ...row, ...patch };
  world.store.updateRealm({ exports: exportRows(world.store).map((r) => (r.id === row.id ? updated : r)) });
  return updated;
}
