// Custom emoji: GET /realm/emoji lists them keyed by ID, deactivated ones included (the
// registration response's realm_emoji); POST /realm/emoji/{emoji_name} adds one from an image,
// DELETE deactivates one. Every change sends everyone the whole list as a realm_emoji update.
import { ApiError, badRequest } from '../../errors.js';
import type { Ctx, FilePart } from '../context.js';
import type { GroupSettingValue, User } from '../../store/state.js';
import { realmEmojiState } from './register-state.js';
import { holdsSetting } from '../group-settings/membership.js';
import { activeUserIds } from '../users/access.js';
import { UNICODE_EMOJI } from '../emoji/emoji-data.js';
import { isAdmin, requireHuman, requireNonGuest } from '../users/roles.js';

/** The real server's MAX_EMOJI_FILE_SIZE_MIB default. */
const MAX_EMOJI_FILE_SIZE_MIB = 5;

/** Image types the real server both thumbnails and shows inline, with the extension it stores them under. */
const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png', 'image/gif': 'gif', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/avif': 'avif',
};

export function customEmoji(ctx: Ctx): { emoji: Record<string, unknown> } {
  return { emoji: realmEmojiState(ctx.store).realm_emoji as Record<string, unknown> };
}

function notifyRealmEmoji(ctx: Ctx): void {
  ctx.events.publish(activeUserIds(ctx.store), { type: 'realm_emoji', op: 'update', ...realmEmojiState(ctx.store) });
}

function checkEmojiName(name: string): void {
  if (!name) throw badRequest('Emoji name is missing');
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[_-]$/.test(name)) throw badRequest('Emoji names must end with either a letter or digit.');
    return;
  }
  throw badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

function canAddCustomEmoji(ctx: Ctx, actor: User): boolean {
  const realm = ctx.store.realm as unknown as Record<string, unknown>;
  const setting = (realm.can_add_custom_emoji_group ?? ctx.store.realm.shown_settings?.can_add_custom_emoji_group) as GroupSettingValue | undefined;
  return setting !== undefined && holdsSetting(ctx.store, setting, actor.user_id);
}

const activeNamed = (ctx: Ctx, name: string) => ctx.store.realmEmoji.find((e) => e.name === name && !e.deactivated);

export function uploadCustomEmoji(ctx: Ctx, actor: User, input: { name: string; files: readonly FilePart[] }): Record<string, never> {
  // The real server's require_member_or_admin: neither guests nor bots.
  requireNonGuest(actor);
  requireHuman(actor);
  const name = input.name.trim().replaceAll(' ', '_');
  checkEmojiName(name);
  if (!canAddCustomEmoji(ctx, actor)) throw badRequest('Insufficient permission');
  if (activeNamed(ctx, name)) throw badRequest('A custom emoji with this name already exists.');
  if (input.files.length !== 1) throw badRequest('You must upload exactly one file.');
  if (Object.hasOwn(UNICODE_EMOJI, name) && !isAdmin(actor)) throw badRequest('Only administrators can override default emoji.');
  const [file] = input.files;
  if (file.size > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  }
  const extension = IMAGE_EXTENSIONS[file.mimetype.split(';')[0].trim().toLowerCase()];
  if (!extension) throw badRequest('Invalid image format');
  const id = ctx.store.nextId('realm_emoji');
  ctx.store.realmEmoji.insert({
    id, name, source_url: `/user_avatars/${ctx.store.realm.id}/emoji/images/${id}.${extension}`, deactivated: false, author_id: actor.user_id,
  });
  notifyRealmEmoji(ctx);
  return {};
}

export function deactivateCustomEmoji(ctx: Ctx, actor: User, input: { name: string }): Record<string, never> {
  const emoji = activeNamed(ctx, input.name);
  if (!emoji) {
    const status = ctx.supports('missing_custom_emoji_not_found') ? 404 : 400;
    throw new ApiError('BAD_REQUEST', `Emoji '${input.name}' does not exist`, status);
  }
  if (!isAdmin(actor) && emoji.author_id !== actor.user_id) throw badRequest('Must be an organization administrator or emoji author');
  ctx.store.realmEmoji.update(emoji, { deactivated: true });
  notifyRealmEmoji(ctx);
  return {};
}
