// DELETE /export/realm/{export_id}, GET /export/realm/consents, and the archive's download.
import { ApiError, badRequest } from '../../errors.js';
import type { RealmExportRow, User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { FileResult, type WorldCtx } from '../context.js';
import { requireAdmin } from '../users/roles.js';
import { exportRows, notifyRealmExport, updateExportRow } from './list.js';

export function deleteExport(world: WorldCtx, actor: User, exportId: number): void {
  requireAdmin(actor);
  const row = exportRows(world.store).find((r) => r.id === exportId);
  if (!row) throw badRequest('Invalid data export ID');
  // An export made on a previous server has no archive here: refused as if deleted already (the
  // real server's answer from 499; before, it failed with an unexpected error, which the mock does
  // not imitate).
  if (row.status === 'deleted' || row.from_prior_server) throw badRequest('Export already deleted');
  if (row.status === 'failed') throw badRequest('Export failed, nothing to delete');
  if (row.status === 'requested') throw badRequest('Export still in progress');
  updateExportRow(world, row, { status: 'deleted', date_deleted: world.clock.nowMs() / 1000, content_base64: null });
  notifyRealmExport(world);
}

/** Every active person's consent to exporting their private data. */
export function exportConsents(
  store: Store,
  actor: User,
): { export_consents: Array<{ user_id: number; consented: boolean }> } {
  requireAdmin(actor);
  const people = store.users.filter((u) => u.is_active && !u.is_bot).sort((a, b) => a.user_id - b.user_id);
  return {
    export_consents: people.map((u) => ({
      user_id: u.user_id,
      consented: u.settings.allow_private_data_export === true,
    })),
  };
}

/**
 * Archives decoded from the row's base64, per row: a download decoded it again each time (a
 * megabyte of base64 a request). A changed row is a new object, so a kept one is never stale.
 */
const decoded = new WeakMap<RealmExportRow, Buffer>();

export function serveExport(store: Store, p: { realmId: number; token: string; filename: string }): FileResult {
  const row = exportRows(store).find((r) => r.path === `${p.token}/${p.filename}`);
  if (p.realmId !== store.realm.id || !row || row.status !== 'succeeded' || row.content_base64 === null) {
    throw new ApiError('BAD_REQUEST', 'File not found.', 404);
  }
  let bytes = decoded.get(row);
  if (!bytes) decoded.set(row, (bytes = Buffer.from(row.content_base64, 'base64')));
  return new FileResult(bytes, 'application/gzip', {
    'Content-Disposition': `attachment; filename="${p.filename}"`,
  });
}
