// Avatar URLs: every user of the mock has the default (Gravatar identicon) avatar, versioned so
// that clients refetch it when it changes.
import { createHash } from 'node:crypto';
import type { User } from '../../store/state.js';

/** Hashes by address: every message and user dict needs one, and MD5 showed in profiles. */
const hashes = new Map<string, string>();

export function avatarUrl(user: User): string {
  const email = user.delivery_email.toLowerCase();
  let hash = hashes.get(email);
  if (hash === undefined) {
    hash = createHash('md5').update(email).digest('hex');
    if (hashes.size >= 10_000) hashes.clear();
    hashes.set(email, hash);
  }
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${user.avatar_version}`;
}
