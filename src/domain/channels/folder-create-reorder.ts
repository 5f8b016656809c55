// POST /channel_folders/create and PATCH /channel_folders (reorder): administrators add a folder
// (placed last: the real server gives a new folder its own ID as its order) and set the display
// order of all of them. Each sends a channel_folder event to every active user.
import { badRequest } from '../../errors.js';
import type { ChannelFolder } from '../../store/state.js';
import type { Ctx } from '../context.js';
import { channelFolderState } from './register-state.js';
import { renderMarkdown } from '../render/markdown.js';
import { renderLevel } from '../render/render-level.js';
import { activeUserIds } from '../users/access.js';
import { requireAdmin } from '../users/roles.js';
import { checkFolderName } from './names.js';

export function createChannelFolder(
  ctx: Ctx,
  input: { name: string; description: string },
): { channel_folder_id: number } {
  const { store } = ctx;
  requireAdmin(ctx.actor);
  checkFolderName(input.name);
  if (store.channelFolders.find((f) => f.name.toLowerCase() === input.name.toLowerCase()))
    throw badRequest('Channel folder name already in use');
  const id = store.nextId('channel_folders');
  const folder: ChannelFolder = {
    id,
    name: input.name,
    description: input.description,
    rendered_description: renderMarkdown(store, input.description, null, renderLevel(ctx.supports), ctx.clock.nowMs()),
    is_archived: false,
    order: id,
    creator_id: ctx.actor.user_id,
    date_created: ctx.clock.now(),
  };
  store.channelFolders.insert(folder);
  const dict = (channelFolderState(store).channel_folders as Array<{ id: number }>).find((f) => f.id === id);
  ctx.events.publish(activeUserIds(store), { type: 'channel_folder', op: 'add', channel_folder: dict });
  return { channel_folder_id: id };
}

/** Every folder of the organization (archived ones too) must be named; IDs of no folder are ignored. */
export function reorderChannelFolders(ctx: Ctx, order: number[]): void {
  const { store } = ctx;
  requireAdmin(ctx.actor);
  const position = new Map<number, number>();
  order.forEach((id, i) => position.set(id, i));
  const folders = [...store.channelFolders.all()];
  if (folders.some((f) => !position.has(f.id))) throw badRequest('Invalid order mapping.');
  for (const folder of folders) store.channelFolders.update(folder, { order: position.get(folder.id)! });
  ctx.events.publish(activeUserIds(store), { type: 'channel_folder', op: 'reorder', order });
}
