// POST /export/realm: an administrator starts a data export, with the real server's checks in its
// order (the organization's owner_full_content_access for a full export without consent, 5 a
// week, the size bound, an owner who makes the export usable). The archive is built at
// once from the data as it is now; the export finishes EXPORT_DURATION_S of mock time later
// (complete.ts), as the real server's background worker would.
import { randomBytes } from 'node:crypto';
import { badRequest } from '../../errors.js';
import type { RealmExportRow, User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import type { WorldCtx } from '../context.js';
import { isOwner, requireAdmin } from '../users/roles.js';
import {
  EXPORT_FULL_WITH_CONSENT,
  EXPORT_FULL_WITHOUT_CONSENT,
  EXPORT_PUBLIC,
  exportFiles,
  exportedContent,
  tarGz,
} from './archive.js';
import { settingValue } from '../realm/setting-values.js';
import { exportRows, notifyRealmExport, updateExportRow } from './list.js';
import { checkAvatarSpace, type UploadLimits } from '../uploads/upload.js';
import { SUPPORT_EMAIL } from '../server-info.js';

const EXPORT_LIMIT = 5;
const EXPORT_LIMIT_WINDOW_S = 7 * 24 * 3600;
const MAX_MESSAGE_HISTORY = 250_000;
const MAX_UPLOAD_QUOTA_BYTES = 20 * 1024 ** 3;
/** EMAIL_ADDRESS_VISIBILITY_NOBODY: the one visibility that hides an owner's address from administrators. */
const VISIBILITY_NOBODY = 4;

function checkExportable(store: Store, type: number): void {
  const owners = store.users.filter((u) => u.is_active && !u.is_bot && isOwner(u));
  const uploadBytes = store.attachments.all().reduce((sum, a) => sum + a.size, 0);
  if (exportedContent(store, type).messages.length > MAX_MESSAGE_HISTORY || uploadBytes > MAX_UPLOAD_QUOTA_BYTES) {
    throw badRequest(`Please request a manual export from ${SUPPORT_EMAIL}.`);
  }
  if (type === EXPORT_FULL_WITH_CONSENT && !owners.some((u) => u.settings.allow_private_data_export === true)) {
    throw badRequest(
      `Make sure at least one Organization Owner is consenting to the export or contact ${SUPPORT_EMAIL} for help.`,
    );
  }
  if (type === EXPORT_PUBLIC && !owners.some((u) => u.settings.email_address_visibility !== VISIBILITY_NOBODY)) {
    throw badRequest(
      `Make sure at least one Organization Owner allows other Administrators to see their email address or contact ${SUPPORT_EMAIL} for help`,
    );
  }
}

/** `limits`: the world's and the server's bounds on held files, which archives count towards. */
export async function requestExport(
  world: WorldCtx,
  actor: User,
  type: RealmExportRow['type'],
  limits: UploadLimits,
): Promise<{ id: number }> {
  requireAdmin(actor);
  const { store } = world;
  // The organization's security model decides first, before the weekly limit is counted.
  if (type === EXPORT_FULL_WITHOUT_CONSENT && settingValue(store, 'owner_full_content_access') !== true) {
    throw badRequest('Full exports without member consent are not enabled for this organization.');
  }
  const nowS = world.clock.nowMs() / 1000;
  const recent = exportRows(store).filter((r) => r.date_requested >= nowS - EXPORT_LIMIT_WINDOW_S);
  if (recent.length >= EXPORT_LIMIT) throw badRequest('Exceeded rate limit.');
  checkExportable(store, type);

  const id = exportRows(store).reduce((max, r) => Math.max(max, r.id), 0) + 1;
  const name = `zulip-export-${randomBytes(6).toString('base64url').toLowerCase()}`;
  // The data is read now, before anything else can change it; packing it is asynchronous.
  const files = exportFiles(store, type);
  store.updateRealm({
    exports: [
      ...exportRows(store),
      {
        id,
        type,
        acting_user_id: actor.user_id,
        status: 'requested',
        date_requested: nowS,
        date_succeeded: null,
        date_failed: null,
        date_deleted: null,
        path: `${randomBytes(12).toString('base64url')}/${name}.tar.gz`,
        content_base64: null,
      },
    ],
  });
  notifyRealmExport(world);
  const archive = await tarGz(name, files, world.clock.nowMs());
  // Another request (a reset, say) may have replaced the row meanwhile: only the same export gets the archive.
  const row = exportRows(store).find((r) => r.id === id && r.date_requested === nowS);
  if (!row) return { id };
  try {
    checkAvatarSpace(store, archive.length, 0, limits);
    updateExportRow(world, row, { content_base64: archive.toString('base64') });
  } catch {
    // No room for the archive in the mock's bound on held files: the export fails, as a real one can.
    updateExportRow(world, row, { status: 'failed', date_failed: world.clock.nowMs() / 1000 });
    notifyRealmExport(world);
  }
  return { id };
}
