// Uploaded avatars (bots' and the caller's own): the request's one image checked as the real server checks it,
// kept in the state (user_avatars) under a new unguessable path, the user's avatar changed with the
// events the real server's do_change_avatar_fields sends, and the image served at the site's
// /user_avatars/... to anyone who has the URL (the real server serves them without credentials).
import { randomBytes } from '../../random-pool.js';
import { ApiError, badRequest } from '../../errors.js';
import type { User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { FileResult, type FilePart, type QueueTraits, type WorldCtx } from '../context.js';
import { botAudience } from './bot-audience.js';
import { MAX_AVATAR_FILE_SIZE_MIB } from '../../upload-limits.js';
import { imageTypeOf } from '../uploads/image-size.js';
import { checkAvatarSpace, type UploadLimits } from '../uploads/upload.js';
import { activeUserIds } from './access.js';
import { avatarSource, avatarUrl } from './avatar.js';
import { withDrawnAvatar } from './generated-avatar.js';

/**
 * The avatar a request carries (null: none), as the real server takes it: one file part at most,
 * of at most MAX_AVATAR_FILE_SIZE_MIB, that its image library can read (the mock reads PNG, GIF,
 * JPEG and WebP headers). The file's type is what its bytes are, not what the upload declared.
 */
export function avatarFileOf(files: readonly FilePart[]): FilePart | null {
  if (files.length === 0) return null;
  if (files.length > 1) throw badRequest('You may only upload one file at a time');
  const [file] = files;
  if (file.size > MAX_AVATAR_FILE_SIZE_MIB * 1024 * 1024) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${MAX_AVATAR_FILE_SIZE_MIB} MiB`);
  }
  const type = imageTypeOf(file.buffer);
  if (!type) throw new ApiError('BAD_IMAGE', 'Could not decode image; did you upload an image file?');
  return { ...file, mimetype: type };
}

/**
 * Keeps the image for the user (by ID: a bot being created has no row yet) under a new path, drops
 * the previous one (`previous`, the user's avatar_path), and gives the path.
 */
export function storeAvatar(
  store: Store,
  userId: number,
  previous: string | null | undefined,
  file: FilePart,
  limits: UploadLimits,
): string {
  const pathId = `${store.realm.id}/${randomBytes(20).toString('hex')}`;
  const old = previous ? store.userAvatars.get(previous) : undefined;
  checkAvatarSpace(store, file.size, old ? Math.floor((old.content_base64.length * 3) / 4) : 0, limits);
  if (old) store.userAvatars.remove(old);
  store.userAvatars.insert({
    path_id: pathId,
    user_id: userId,
    content_type: file.mimetype,
    content_base64: file.buffer.toString('base64'),
  });
  return pathId;
}

/**
 * A new uploaded avatar for the user: a new version, and the events the real server sends:
 * `realm_user` `update` with the avatar's fields to everyone, and for a bot `realm_bot` `update`
 * with avatar_url to its owner and administrators (queues of FL 474 and later do not get it).
 */
export function changeAvatar(world: WorldCtx, user: User, file: FilePart, limits: UploadLimits): User {
  const { store } = world;
  const updated = store.users.update(user, {
    avatar_path: storeAvatar(store, user.user_id, user.avatar_path, file, limits),
    avatar_generated: false,
    avatar_version: user.avatar_version + 1,
  });
  announceAvatar(world, updated);
  return updated;
}

/**
 * The avatar's events (notify_avatar_url_change): also sent when a Gravatar's address changes.
 * `forQueue`: the queues that hear of it (absent: all), for changes only some levels see.
 */
export function announceAvatar(world: WorldCtx, updated: User, forQueue?: (queue?: QueueTraits) => boolean): void {
  const { store } = world;
  const publish = (to: Iterable<number>, event: Record<string, unknown>) =>
    forQueue
      ? world.events.publish(to, event, (_id, _user, queue) => (forQueue(queue) ? event : null))
      : world.events.publish(to, event);
  if (updated.is_bot) {
    publish(botAudience(store, updated), {
      type: 'realm_bot',
      op: 'update',
      bot: { user_id: updated.user_id, avatar_url: avatarUrl(updated) },
    });
  }
  publish(activeUserIds(store), {
    type: 'realm_user',
    op: 'update',
    person: {
      avatar_source: avatarSource(updated),
      avatar_url: avatarUrl(updated),
      avatar_url_medium: avatarUrl(updated, true),
      avatar_version: updated.avatar_version,
      user_id: updated.user_id,
    },
  });
}

/**
 * Back to a default avatar with the events an upload sends (do_change_avatar_fields): a new
 * version, `realm_user` `update` to everyone, `realm_bot` `update` for a bot. The default is the
 * Gravatar (source G), or with `drawn` a newly drawn image (source J, the organization's
 * default_avatar_source from FL 456).
 */
export function resetAvatar(world: WorldCtx, user: User, drawn = false): User {
  const { store } = world;
  let row = dropAvatar(store, user);
  if (drawn) {
    const { avatar_path, avatar_generated } = withDrawnAvatar(store, row);
    row = store.users.update(row, { avatar_path, avatar_generated });
  }
  const updated = store.users.update(row, { avatar_version: user.avatar_version + 1 });
  announceAvatar(world, updated);
  return updated;
}

/** Back to the Gravatar: the uploaded image is dropped (the caller bumps the version and tells clients). */
function dropAvatar(store: Store, user: User): User {
  if (!user.avatar_path) return user;
  const old = store.userAvatars.get(user.avatar_path);
  if (old) store.userAvatars.remove(old);
  return store.users.update(user, { avatar_path: null, avatar_generated: false });
}

const notFound = () => new ApiError('BAD_REQUEST', 'File not found.', 404);

/** GET /user_avatars/<realm id>/<hash>.png (or <hash>-medium.png): the image as uploaded. */
export function serveAvatar(store: Store, { realmId, filename }: { realmId: number; filename: string }): FileResult {
  const match = /^([0-9a-f]{40})(?:-medium)?\.png$/.exec(filename);
  const avatar = match ? store.userAvatars.get(`${realmId}/${match[1]}`) : undefined;
  if (!avatar || realmId !== store.realm.id) throw notFound();
  return new FileResult(Buffer.from(avatar.content_base64, 'base64'), avatar.content_type, {
    'Cache-Control': 'public, max-age=31536000, immutable',
  });
}
