// Avatar URLs: every user of the mock has the default (Gravatar identicon) avatar, versioned so
// that clients refetch it when it changes.
import { createHash } from 'node:crypto';
import type { User } from '../../store/state.js';

export function avatarUrl(user: User): string {
  const hash = createHash('md5').update(user.delivery_email.toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${user.avatar_version}`;
}
