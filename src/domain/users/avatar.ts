// Avatar URLs: the Gravatar identicon, or an uploaded image (bots' so far; see avatar-upload.ts)
// at the site's /user_avatars/..., relative to the site as the real server's local storage gives
// it. Versioned, so that clients fetch it again when it changes.
import { createHash } from 'node:crypto';
import type { User } from '../../store/state.js';
import { Memo } from '../../memo.js';

/** Hashes by address: every message and user dict needs one, and MD5 showed in profiles. */
const hashes = new Memo<string, string>(10_000);
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** `medium`: the larger size clients show on profiles (register's avatar_url_medium). */
export function avatarUrl(
  user: Pick<User, 'avatar_path' | 'avatar_version' | 'delivery_email'>,
  medium = false,
): string {
  if (user.avatar_path)
    return `/user_avatars/${user.avatar_path}${medium ? '-medium' : ''}.png?version=${user.avatar_version}`;
  const hash = hashes.get(user.delivery_email.toLowerCase(), md5);
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${medium ? '&s=500' : ''}&version=${user.avatar_version}`;
}

/** Where the avatar comes from, as clients are told: U uploaded, J drawn by the server, G Gravatar. */
export const avatarSource = (user: User): 'U' | 'J' | 'G' =>
  user.avatar_path ? (user.avatar_generated ? 'J' : 'U') : 'G';
