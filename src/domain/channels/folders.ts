// PATCH /channel_folders/{id}: administrators rename a folder, change its description, archive
// or unarchive it. Each change that happens sends one channel_folder/update event to everyone.
import { badRequest } from '../../errors.js';
import type { Ctx, ParamsOf } from '../context.js';
import type { ChannelFolder } from '../../store/state.js';
import { renderMarkdown } from '../render/markdown.js';
import { renderLevel } from '../render/render-level.js';
import { requireAdmin } from '../users/roles.js';
import { activeUserIds } from '../users/access.js';
import { checkFolderName } from './names.js';

export const invalidFolder = () => badRequest('Invalid channel folder ID');

/** The operation's parameters, typed from the description. */
type UpdateFolderParams = ParamsOf<'update-channel-folder'>;

function publishFolderUpdate(ctx: Ctx, folder: ChannelFolder, data: Record<string, unknown>): void {
  ctx.events.publish(activeUserIds(ctx.store), {
    type: 'channel_folder',
    op: 'update',
    channel_folder_id: folder.id,
    data,
  });
}

export function updateChannelFolder(ctx: Ctx, p: UpdateFolderParams): void {
  const { store } = ctx;
  requireAdmin(ctx.actor);
  const folder = store.channelFolders.get(p.channel_folder_id);
  if (!folder) throw invalidFolder();

  // Every check comes before the first change: a refused request changes nothing.
  const rename = p.name !== undefined && p.name !== folder.name ? p.name : undefined;
  if (rename !== undefined) {
    checkFolderName(rename);
    if (store.channelFolders.find((f) => f.id !== folder.id && f.name.toLowerCase() === rename.toLowerCase())) {
      throw badRequest('Channel folder name already in use');
    }
  }
  // Only channels still in use (not archived) keep a folder from being archived.
  if (
    p.is_archived === true &&
    !folder.is_archived &&
    store.streams.find((s) => s.folder_id === folder.id && !s.is_archived)
  ) {
    throw badRequest('You need to remove all the channels from this folder to archive it.');
  }

  if (rename !== undefined) {
    store.channelFolders.update(folder, { name: rename });
    publishFolderUpdate(ctx, folder, { name: rename });
  }

  if (p.description !== undefined && p.description !== folder.description) {
    const rendered = renderMarkdown(store, p.description, null, renderLevel(ctx.supports), ctx.clock.nowMs());
    store.channelFolders.update(folder, { description: p.description, rendered_description: rendered });
    publishFolderUpdate(ctx, folder, { description: p.description, rendered_description: rendered });
  }

  if (p.is_archived !== undefined && p.is_archived !== folder.is_archived) {
    store.channelFolders.update(folder, { is_archived: p.is_archived });
    publishFolderUpdate(ctx, folder, { is_archived: p.is_archived });
  }
}
