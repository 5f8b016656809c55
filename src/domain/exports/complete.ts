// Time-driven: an export requested EXPORT_DURATION_S of mock time ago finishes. The requester
// gets the notification bot's direct message and every administrator the realm_export event, as
// after the real server's export worker. Called on every tick of the world.
import type { WorldCtx } from '../context.js';
import { sendNotificationBotMessage } from '../messages/send.js';
import { exportRows, notifyRealmExport, updateExportRow } from './list.js';

/** Mock seconds an export takes (a small organization's export on the real server takes seconds). */
const EXPORT_DURATION_S = 10;

export function completeDueExports(world: WorldCtx): void {
  const nowS = world.clock.nowMs() / 1000;
  const due = exportRows(world.store).filter(
    (r) => r.status === 'requested' && r.content_base64 !== null && r.date_requested + EXPORT_DURATION_S <= nowS,
  );
  for (const row of due) {
    updateExportRow(world, row, { status: 'succeeded', date_succeeded: nowS });
    const requester = world.store.users.get(row.acting_user_id);
    if (requester?.is_active) {
      sendNotificationBotMessage(world, {
        type: 'private',
        to: [requester.user_id],
        content: 'Your data export is complete. [View and download exports](/#organization/data-exports-admin).',
      });
    }
    notifyRealmExport(world);
  }
}
