// Avatar URLs: every user of the mock has the default (Gravatar identicon) avatar, versioned so
// that clients refetch it when it changes.
import { createHash } from 'node:crypto';
import type { User } from '../../store/state.js';
import { Memo } from '../../memo.js';

/** Hashes by address: every message and user dict needs one, and MD5 showed in profiles. */
const hashes = new Memo<string, string>(10_000);
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** `medium`: the larger size clients show on profiles (register's avatar_url_medium). */
export function avatarUrl(user: User, medium = false): string {
  const hash = hashes.get(user.delivery_email.toLowerCase(), md5);
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${medium ? '&s=500' : ''}&version=${user.avatar_version}`;
}
