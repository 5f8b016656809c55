// GET /channel_folders: the organization's folders in display order (the registration
// response's channel_folders), archived ones only on request.
import type { Ctx } from '../context.js';
import { channelFolderState } from './register-state.js';

export function listChannelFolders(
  ctx: Ctx,
  includeArchived: boolean,
): { channel_folders: Array<Record<string, unknown>> } {
  const folders = channelFolderState(ctx.store).channel_folders as Array<Record<string, unknown>>;
  return { channel_folders: folders.filter((f) => includeArchived || !f.is_archived) };
}
