// Custom emoji: GET /realm/emoji lists them keyed by ID, deactivated ones included (the
// registration response's realm_emoji); POST /realm/emoji/{emoji_name} adds one from an image,
// DELETE deactivates one. Every change sends everyone the whole list as a realm_emoji update.
import { ApiError, badRequest } from '../../errors.js';
import { FileResult, type Ctx, type FilePart } from '../context.js';
import type { Store } from '../../store/store.js';
import { imageTypeOf } from '../uploads/image-size.js';
import { checkAvatarSpace, contentTypeOf } from '../uploads/upload.js';
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
  'image/png': 'png',
  'image/gif': 'gif',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/avif': 'avif',
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
  const setting = (realm.can_add_custom_emoji_group ?? ctx.store.realm.shown_settings?.can_add_custom_emoji_group) as
    GroupSettingValue | undefined;
  return setting !== undefined && holdsSetting(ctx.store, setting, actor.user_id);
}

const activeNamed = (ctx: Ctx, name: string) => ctx.store.realmEmoji.find((e) => e.name === name && !e.deactivated);

export function uploadCustomEmoji(
  ctx: Ctx,
  actor: User,
  input: { name: string; files: readonly FilePart[] },
): Record<string, never> {
  // The real server's require_member_or_admin: neither guests nor bots.
  requireNonGuest(actor);
  requireHuman(actor);
  const name = input.name.trim().replaceAll(' ', '_');
  checkEmojiName(name);
  if (!canAddCustomEmoji(ctx, actor)) throw badRequest('Insufficient permission');
  if (activeNamed(ctx, name)) throw badRequest('A custom emoji with this name already exists.');
  if (input.files.length !== 1) throw badRequest('You must upload exactly one file.');
  if (Object.hasOwn(UNICODE_EMOJI, name) && !isAdmin(actor))
    throw badRequest('Only administrators can override default emoji.');
  const [file] = input.files;
  if (file.size > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  }
  // The declared type (or, when none was declared, the one the file name suggests) must be one
  // the real server both thumbnails and shows inline, and the bytes must read as an image.
  const contentType = contentTypeOf(file).split(';')[0].trim().toLowerCase();
  const extension = IMAGE_EXTENSIONS[contentType];
  if (!extension) throw new ApiError('BAD_IMAGE', 'Invalid image format');
  if (!imageTypeOf(file.buffer) && !isAvif(file.buffer))
    throw new ApiError('BAD_IMAGE', 'Could not decode image; did you upload an image file?');
  checkAvatarSpace(ctx.store, file.size, 0, ctx.server);
  const id = ctx.store.nextId('realm_emoji');
  ctx.store.realmEmoji.insert({
    id,
    name,
    source_url: `/user_avatars/${ctx.store.realm.id}/emoji/images/${id}.${extension}`,
    deactivated: false,
    author_id: actor.user_id,
    content_type: contentType,
    content_base64: file.buffer.toString('base64'),
  });
  notifyRealmEmoji(ctx);
  return {};
}

/** An AVIF file: an ISO media file whose brand is avif (the mock reads no AVIF header further). */
const isAvif = (b: Buffer) =>
  b.length >= 12 && b.toString('latin1', 4, 8) === 'ftyp' && ['avif', 'avis'].includes(b.toString('latin1', 8, 12));

/** A 1x1 transparent PNG: what a fixture's custom emoji (which has no uploaded image) is served as. */
const PLACEHOLDER_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a0a90000000049454e44ae426082',
  'hex',
);

/**
 * GET /user_avatars/<realm id>/emoji/images/<file>: a custom emoji's image at its source_url,
 * deactivated ones included (messages still show them), without credentials as on the real server.
 */
export function serveCustomEmoji(
  store: Store,
  { realmId, fileName }: { realmId: number; fileName: string },
): FileResult {
  const url = `/user_avatars/${realmId}/emoji/images/${fileName}`;
  const emoji = realmId === store.realm.id ? store.realmEmoji.find((e) => e.source_url === url) : undefined;
  if (!emoji) throw new ApiError('BAD_REQUEST', 'File not found.', 404);
  const bytes = emoji.content_base64 === undefined ? PLACEHOLDER_PNG : Buffer.from(emoji.content_base64, 'base64');
  return new FileResult(bytes, emoji.content_type ?? 'image/png', {
    'Cache-Control': 'public, max-age=31536000, immutable',
  });
}

export function deactivateCustomEmoji(ctx: Ctx, actor: User, input: { name: string }): Record<string, never> {
  const emoji = activeNamed(ctx, input.name);
  if (!emoji) {
    const status = ctx.supports('missing_custom_emoji_not_found') ? 404 : 400;
    throw new ApiError('BAD_REQUEST', `Emoji '${input.name}' does not exist`, status);
  }
  if (!isAdmin(actor) && emoji.author_id !== actor.user_id)
    throw badRequest('Must be an organization administrator or emoji author');
  ctx.store.realmEmoji.update(emoji, { deactivated: true });
  notifyRealmEmoji(ctx);
  return {};
}
