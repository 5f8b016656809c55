// GET /thumbnail/status/{realm_id_str}/{filename} (FL 479): whether an uploaded image's thumbnail
// is ready, which clients poll after sending a message that links one. The real server makes
// thumbnails in the background and renders a placeholder until then; the mock makes none and
// renders the finished preview (the original image) at once, so it answers `true` for every
// upload it previews inline (an image whose size it can read) and `false` for other files. The
// caller must be allowed to see the file, with the same errors as its download.
import type { Ctx } from '../context.js';
import { sizeOf } from '../render/inline-images.js';
import { visibleAttachment } from './upload.js';

export function thumbnailStatus(ctx: Ctx, where: { realmId: number; path: string }): { has_thumbnail: boolean } {
  const attachment = visibleAttachment(ctx.store, ctx.actor, where);
  return { has_thumbnail: sizeOf(ctx.store, attachment) !== null };
}
