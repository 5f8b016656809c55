// POST /users/me/avatar and DELETE /users/me/avatar: the caller changes their own avatar, as the
// real server's set_avatar_backend / delete_avatar_backend do: exactly one file, the realm's
// avatar_changes_disabled (administrators exempt), then the shared avatar change and its events;
// a removal goes back to the organization's default avatar (FL 456).
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import { currentSetting } from '../realm/setting-values.js';
import { avatarFileOf, changeAvatar, resetAvatar } from './avatar-upload.js';
import { avatarUrl } from './avatar.js';
import { isAdmin } from './roles.js';
import { drawsNewAvatars } from './generated-avatar.js';

function checkAvatarChangesAllowed(ctx: Ctx): void {
  if (currentSetting(ctx.store.realm, 'avatar_changes_disabled') === true && !isAdmin(ctx.actor)) {
    throw badRequest('Avatar changes are disabled in this organization.');
  }
}

export function uploadOwnAvatar(ctx: Ctx): { avatar_url: string } {
  if (ctx.files.length !== 1) throw badRequest('You must upload exactly one avatar.');
  checkAvatarChangesAllowed(ctx);
  const file = avatarFileOf(ctx.files)!;
  return { avatar_url: avatarUrl(changeAvatar(ctx, ctx.actor, file, ctx.server)) };
}

/**
 * Removing one's avatar goes back to the organization's default: from FL 456 its
 * default_avatar_source (J, the development organization's: a newly drawn image; G: the
 * Gravatar), before it always the Gravatar.
 */
export function deleteOwnAvatar(ctx: Ctx): { avatar_url: string } {
  checkAvatarChangesAllowed(ctx);
  const drawn = drawsNewAvatars(ctx.store, ctx.hasField('RegisterRealm', 'realm_default_avatar_source'));
  return { avatar_url: avatarUrl(resetAvatar(ctx, ctx.actor, drawn)) };
}
