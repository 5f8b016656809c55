// POST /user_uploads and the download of a file: storing the request's one file under a new,
// unguessable path (within the organization's quota and the world's bound) and serving its bytes
// back to those allowed to see them.
import { randomBytes } from 'node:crypto';
import { ApiError, badRequest } from '../../errors.js';
import type { Attachment, User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { FileResult, type FilePart, type WorldCtx } from '../context.js';
import { MAX_FILE_UPLOAD_SIZE_MIB } from './limits.js';
import { mayAccessAttachment } from './access.js';
import { addUploadSpace, notifyAttachment, uploadSpaceUsed } from './attachment-dict.js';

/** The file name as the real server stores it: letters, digits, spaces, dots and dashes; runs of spaces and dashes become one dash. */
function sanitizeFileName(name: string): string {
  const cleaned = name.normalize('NFKC').replace(/[^\p{L}\p{N}_\s.-]/gu, '').trim().replace(/[-\s]+/g, '-');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'uploaded-file' : cleaned;
}

/** Content types by extension, for parts sent without a useful one (as the real server guesses them). */
const TYPES_BY_EXTENSION: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml',
  pdf: 'application/pdf', txt: 'text/plain', md: 'text/markdown', csv: 'text/csv', json: 'application/json',
  zip: 'application/zip', mp4: 'video/mp4', mp3: 'audio/mpeg', html: 'text/html',
};

function contentTypeOf(part: FilePart, name: string): string {
  if (part.mimetype && part.mimetype !== 'application/octet-stream') return part.mimetype;
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  return TYPES_BY_EXTENSION[ext] ?? 'application/octet-stream';
}

/** The URL a file is served at, relative to the site. */
export const uploadUrl = (pathId: string) => `/user_uploads/${pathId.split('/').map(encodeURIComponent).join('/')}`;

/**
 * The real server refuses an upload that would take its organization past its quota
 * (realm_upload_quota_mib, null for none). The mock also bounds what one world keeps, since it
 * holds the files in memory for as long as it runs, and answers that bound the same way.
 */
function checkUploadSpace(store: Store, bytes: number, worldLimitBytes: number, countsToQuota = true): void {
  const quotaMib = store.realm.shown_settings?.upload_quota_mib;
  const used = uploadSpaceUsed(store);
  const overQuota = countsToQuota && typeof quotaMib === 'number' && used + bytes > quotaMib * 1024 * 1024;
  // Uploaded avatars are not the organization's files (its quota ignores them) but they are
  // held in the same memory: the world's bound counts them too.
  if (overQuota || used + avatarBytes(store) + bytes > worldLimitBytes) {
    throw new ApiError('REALM_UPLOAD_QUOTA', "Upload would exceed your organization's upload quota.");
  }
}

/** Bytes of the uploaded avatars (one per user who has one: a short sum). */
function avatarBytes(store: Store): number {
  let total = 0;
  for (const a of store.userAvatars.all()) total += Math.floor((a.content_base64.length * 3) / 4);
  return total;
}

/** An avatar of `bytes` may be kept (`replacing`: the bytes of the one it replaces), within the world's bound. */
export function checkAvatarSpace(store: Store, bytes: number, replacing: number, worldLimitBytes: number): void {
  checkUploadSpace(store, bytes - replacing, worldLimitBytes, false);
}

/** `spaceLimitBytes`: what this world may keep of uploads in all (the server's --max-upload-space-mib). */
export function uploadFile(world: WorldCtx, user: User, { files, spaceLimitBytes }: { files: readonly FilePart[]; spaceLimitBytes: number }): Attachment {
  const { store } = world;
  if (files.length === 0) throw badRequest('You must specify a file to upload');
  if (files.length > 1) throw badRequest('You may only upload one file at a time');
  const [part] = files;
  if (part.size > MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024) {
    throw badRequest(`File is larger than this server's configured maximum upload size (${MAX_FILE_UPLOAD_SIZE_MIB} MiB).`);
  }
  checkUploadSpace(store, part.size, spaceLimitBytes);
  const name = sanitizeFileName(part.originalname);
  const pathId = [store.realm.id, randomBytes(1).toString('hex'), randomBytes(18).toString('base64url'), name].join('/');
  const attachment: Attachment = {
    id: store.nextId('attachments'), path_id: pathId, name, owner_id: user.user_id, size: part.size,
    create_time: world.clock.nowMs(), content_type: contentTypeOf(part, name), message_ids: [],
    content_base64: part.buffer.toString('base64'),
  };
  store.attachments.insert(attachment);
  addUploadSpace(store, attachment.size);
  notifyAttachment(world, 'add', attachment);
  return attachment;
}

const notFound = () => new ApiError('BAD_REQUEST', 'File not found.', 404);

/** The upload at `realmId`/`path` when `user` may see it; otherwise the real server's 404 or 403. */
export function visibleAttachment(store: Store, user: User, { realmId, path }: { realmId: number; path: string }): Attachment {
  const attachment = store.attachments.by('path_id', `${realmId}/${path}`);
  if (!attachment || realmId !== store.realm.id) throw notFound();
  if (!mayAccessAttachment(store, user, attachment)) throw new ApiError('BAD_REQUEST', 'You are not authorized to view this file.', 403);
  return attachment;
}

/** Types a browser may show in place; anything else is offered as a download (as the real server does, against scripts in files). */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|apng|avif)|application\/pdf|audio\/|video\/(mp4|webm))/;

/** The file's bytes as every download serves them. */
export function fileAnswer(attachment: Attachment): FileResult {
  const disposition = INLINE_TYPES.test(attachment.content_type) ? 'inline' : 'attachment';
  return new FileResult(Buffer.from(attachment.content_base64, 'base64'), attachment.content_type, {
    'Content-Disposition': `${disposition}; filename*=UTF-8''${encodeURIComponent(attachment.name)}`,
    'Cache-Control': 'private, immutable',
  });
}

export function downloadFile(store: Store, user: User, where: { realmId: number; path: string }): FileResult {
  return fileAnswer(visibleAttachment(store, user, where));
}
