// Views of the upload and attachment operations, by operationId.
import type { OpenViewTable, ViewTable } from '../context.js';
import { listAttachments, removeAttachment } from './attachments.js';
import { downloadWithToken, temporaryUrl } from './temporary-url.js';
import { downloadFile, uploadFile, uploadUrl } from './upload.js';
import { thumbnailStatus } from './thumbnail-status.js';

export const views: ViewTable = {
  'upload-file': (ctx) => {
    const attachment = uploadFile(ctx, ctx.actor, { files: ctx.files, limits: ctx.server });
    const url = uploadUrl(attachment.path_id);
    return { uri: url, url, filename: attachment.name };
  },
  'get-user-upload': (ctx, p) => downloadFile(ctx.store, ctx.actor, { realmId: p.realm_id_str, path: p.filename }),
  'get-file-temporary-url': (ctx, p) => ({
    url: temporaryUrl(ctx, ctx.actor, { realmId: p.realm_id_str, path: p.filename }),
  }),
  'check-thumbnail-status': (ctx, p) => thumbnailStatus(ctx, { realmId: p.realm_id_str, path: p.filename }),
  'get-attachments': (ctx) => listAttachments(ctx.store, ctx.actor),
  'remove-attachment': (ctx, p) => removeAttachment(ctx, ctx.actor, { attachmentId: p.attachment_id }),
};

/** The temporary URL's download needs no credentials: the token is the permission. */
export const openViews: OpenViewTable = {
  'get-user-upload-with-token': (ctx, p) => downloadWithToken(ctx, { token: p.token, filename: p.filename }),
};
