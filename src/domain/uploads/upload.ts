// POST /user_uploads and the download of a file: storing the request's one file under a new,
// unguessable path (within the organization's quota and the world's bound) and serving its bytes
// back to those allowed to see them.
import { randomBytes } from '../../random-pool.js';
import { ApiError, badRequest } from '../../errors.js';
import type { Attachment, User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { FileResult, type FilePart, type WorldCtx } from '../context.js';
import { MAX_FILE_UPLOAD_SIZE_MIB } from '../../upload-limits.js';
import { mayAccessAttachment } from './access.js';
import type { ServerInfo } from '../server-info.js';
import { addUploadSpace, notifyAttachment, uploadSpaceUsed } from './attachment-dict.js';

/** The file name as the real server stores it: letters, digits, spaces, dots and dashes; runs of spaces and dashes become one dash. */
function sanitizeFileName(name: string): string {
  const cleaned = name
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_\s.-]/gu, '')
    .trim()
    .replace(/[-\s]+/g, '-');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'uploaded-file' : cleaned;
}

/** Content types by extension, for parts sent without a useful one (as the real server guesses them). */
const TYPES_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
  html: 'text/html',
};

/**
 * Types a part may carry without having declared one. The real server guesses the type from the
 * file name when a part has no Content-Type (get_file_info), as Python's requests sends parts.
 * The multipart parser gives such a part text/plain (RFC 7578's default) and cannot tell it from
 * a declared text/plain, so both, like application/octet-stream, are read as "not declared".
 */
const UNDECLARED_TYPES = new Set(['', 'text/plain', 'application/octet-stream']);

/** The part's declared type, or when it declared none the type its file name suggests. */
export function contentTypeOf(part: FilePart, name = part.originalname): string {
  const declared = part.mimetype ?? '';
  if (!UNDECLARED_TYPES.has(declared.split(';')[0].trim().toLowerCase())) return declared;
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  return TYPES_BY_EXTENSION[ext] ?? (declared || 'application/octet-stream');
}

/** The URL a file is served at, relative to the site. */
export const uploadUrl = (pathId: string) => `/user_uploads/${pathId.split('/').map(encodeURIComponent).join('/')}`;

/**
 * The real server refuses an upload that would take its organization past its quota
 * (realm_upload_quota_mib, null for none). The mock also bounds what one world keeps, since it
 * holds the files in memory for as long as it runs, and answers that bound the same way.
 */
function checkUploadSpace(store: Store, bytes: number, limits: UploadLimits, countsToQuota = true): void {
  const quotaMib = store.realm.shown_settings?.upload_quota_mib;
  const used = uploadSpaceUsed(store);
  const overQuota = countsToQuota && typeof quotaMib === 'number' && used + bytes > quotaMib * 1024 * 1024;
  // Uploaded avatars are not the organization's files (its quota ignores them) but they are
  // held in the same memory: the world's bound counts them too, and so does the server's.
  const overWorld = used + avatarBytes(store) + bytes > limits.uploadSpaceLimitBytes;
  const overServer = bytes > 0 && limits.serverUploads.usedBytes() + bytes > limits.serverUploads.limitBytes;
  if (overQuota || overWorld || overServer) {
    throw new ApiError('REALM_UPLOAD_QUOTA', "Upload would exceed your organization's upload quota.");
  }
}

/** The bounds an upload is held to: the world's and the server's (ServerInfo gives both). */
export type UploadLimits = Pick<ServerInfo, 'uploadSpaceLimitBytes' | 'serverUploads'>;

/** Bytes of uploaded files a world holds: uploads, avatars and custom emoji images. */
export const heldUploadBytes = (store: Store): number => uploadSpaceUsed(store) + avatarBytes(store);

/** Bytes of the uploaded avatars, custom emoji images and data export archives (a short sum each). */
function avatarBytes(store: Store): number {
  let total = 0;
  for (const a of store.userAvatars.all()) total += Math.floor((a.content_base64.length * 3) / 4);
  for (const e of store.realmEmoji.all()) total += Math.floor(((e.content_base64?.length ?? 0) * 3) / 4);
  for (const x of store.realm.exports ?? []) total += Math.floor(((x.content_base64?.length ?? 0) * 3) / 4);
  return total;
}

/** An avatar of `bytes` may be kept (`replacing`: the bytes of the one it replaces), within the world's bound. */
export function checkAvatarSpace(store: Store, bytes: number, replacing: number, limits: UploadLimits): void {
  checkUploadSpace(store, bytes - replacing, limits, false);
}

/** `limits`: what this world and all worlds together may keep of uploads (--max-upload-space-mib, --max-total-upload-space-mib). */
export function uploadFile(
  world: WorldCtx,
  user: User,
  { files, limits }: { files: readonly FilePart[]; limits: UploadLimits },
): Attachment {
  const { store } = world;
  if (files.length === 0) throw badRequest('You must specify a file to upload');
  if (files.length > 1) throw badRequest('You may only upload one file at a time');
  const [part] = files;
  if (part.size > MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024) {
    throw badRequest(
      `File is larger than this server's configured maximum upload size (${MAX_FILE_UPLOAD_SIZE_MIB} MiB).`,
    );
  }
  checkUploadSpace(store, part.size, limits);
  const name = sanitizeFileName(part.originalname);
  // As the real path: two hex digits, then 24 URL-safe characters (18 random bytes); one call to
  // the system's random source for both.
  const random = randomBytes(19);
  const pathId = [
    store.realm.id,
    random.subarray(0, 1).toString('hex'),
    random.subarray(1).toString('base64url'),
    name,
  ].join('/');
  const attachment: Attachment = {
    id: store.nextId('attachments'),
    path_id: pathId,
    name,
    owner_id: user.user_id,
    size: part.size,
    create_time: world.clock.nowMs(),
    content_type: contentTypeOf(part, name),
    message_ids: [],
    content_base64: part.buffer.toString('base64'),
  };
  store.attachments.insert(attachment);
  addUploadSpace(store, attachment.size);
  notifyAttachment(world, 'add', attachment);
  return attachment;
}

const notFound = () => new ApiError('BAD_REQUEST', 'File not found.', 404);

/** The upload at `realmId`/`path` when `user` may see it; otherwise the real server's 404 or 403. */
export function visibleAttachment(
  store: Store,
  user: User,
  { realmId, path }: { realmId: number; path: string },
): Attachment {
  const attachment = store.attachments.by('path_id', `${realmId}/${path}`);
  if (!attachment || realmId !== store.realm.id) throw notFound();
  if (!mayAccessAttachment(store, user, attachment))
    throw new ApiError('BAD_REQUEST', 'You are not authorized to view this file.', 403);
  return attachment;
}

/**
 * Types a browser may show in place, matched exactly (parameters aside): the real server's
 * INLINE_MIME_TYPES but for SVG, which can hold script. Anything else is offered as a download,
 * against scripts in files.
 */
const INLINE_TYPES = new Set([
  'application/pdf',
  'audio/aac',
  'audio/flac',
  'audio/mp4',
  'audio/mpeg',
  'audio/wav',
  'audio/webm',
  'image/apng',
  'image/avif',
  'image/gif',
  'image/jpeg',
  'image/png',
  'image/webp',
  'text/plain',
  'video/mp4',
  'video/webm',
]);

/** The file's bytes as every download serves them. */
export function fileAnswer(attachment: Attachment): FileResult {
  const bareType = attachment.content_type.split(';')[0].trim().toLowerCase();
  const disposition = INLINE_TYPES.has(bareType) ? 'inline' : 'attachment';
  return new FileResult(Buffer.from(attachment.content_base64, 'base64'), attachment.content_type, {
    'Content-Disposition': `${disposition}; filename*=UTF-8''${encodeURIComponent(attachment.name)}`,
    'Cache-Control': 'private, immutable',
  });
}

export function downloadFile(store: Store, user: User, where: { realmId: number; path: string }): FileResult {
  return fileAnswer(visibleAttachment(store, user, where));
}
