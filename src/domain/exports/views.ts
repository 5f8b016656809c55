// Views of the data export operations, by operationId.
import type { OpenViewTable, ViewTable } from '../context.js';
import { requireAdmin } from '../users/roles.js';
import { requestExport } from './create.js';
import { exportTypeCode, listExports, type ExportTypeForm } from './list.js';
import { deleteExport, exportConsents, serveExport } from './manage.js';

export const views: ViewTable = {
  'export-realm': (ctx, params) => requestExport(ctx, ctx.actor, exportTypeCode(params.export_type ?? 1), ctx.server),
  'get-realm-exports': (ctx) => {
    requireAdmin(ctx.actor);
    return { exports: listExports(ctx.store, ctx.variantOf('RealmExport', 'export_type') as ExportTypeForm) };
  },
  'delete-realm-export': (ctx, params) => deleteExport(ctx, ctx.actor, params.export_id),
  'get-realm-export-consents': (ctx) => exportConsents(ctx.store, ctx.actor),
};

/** The archive is served without credentials, as the real server's local storage serves it. */
export const openViews: OpenViewTable = {
  'get-realm-export-file': (ctx, params) =>
    serveExport(ctx.store, { realmId: params.realm_id_str, token: params.token, filename: params.filename }),
};
