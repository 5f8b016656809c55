// Who a message goes to, from the send parameters `type` and `to`: a channel (by name or ID) or a
// set of users (by ID or email). The sender may be listed among direct recipients; the
// conversation always includes them.
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { Stream, User } from '../../store/state.js';
import { streamDoesNotExist, streamIdDoesNotExist } from './errors.js';
import { apiEmailOf, userByApiEmail } from '../users/email-visibility.js';

export type MessageType = 'stream' | 'private';

export type Addressee = { type: 'stream'; stream: Stream } | { type: 'private'; users: User[] };

/** `direct`/`private` and `channel`/`stream` name the same two kinds of message. */
export function messageType(type: string): MessageType {
  return type === 'channel' || type === 'stream' ? 'stream' : 'private';
}

/** A channel given by name or ID (a one-element list is accepted for legacy clients). */
function channelFromTo(store: Store, to: unknown): Stream {
  let target = to;
  if (Array.isArray(target)) {
    if (target.length !== 1) throw badRequest('Expected exactly one channel');
    target = target[0];
  }
  if (typeof target === 'number') {
    const stream = store.streams.get(target);
    if (!stream) throw streamIdDoesNotExist(target);
    return stream;
  }
  if (typeof target !== 'string') throw badRequest('Invalid data type for channel');
  const name = target.trim();
  const stream = store.streams.by('name', name.toLowerCase());
  if (!stream) throw streamDoesNotExist(name);
  return stream;
}

/**
 * Direct recipients by ID or API email (a comma-separated string of emails is accepted too);
 * `organization`: below feature level 163, the API emails the organization's setting gives.
 */
function usersFromTo(store: Store, to: unknown, organization: boolean): User[] {
  const list = typeof to === 'string' ? to.split(',') : to;
  if (!Array.isArray(list)) throw badRequest('Invalid data type for recipients');
  const users = new Map<number, User>();
  for (const item of list) {
    let user: User | undefined;
    if (typeof item === 'number') {
      user = store.users.get(item);
      if (!user) throw badRequest(`Invalid user ID ${item}`);
    } else {
      const email = String(item).trim();
      if (!email) continue;
      user = userByApiEmail(store, email, organization);
      if (!user) throw badRequest(`Invalid email '${email}'`);
    }
    users.set(user.user_id, user);
  }
  if (!users.size) throw badRequest('Message must have recipients');
  for (const user of users.values()) {
    if (!user.is_active) throw badRequest(`'${apiEmailOf(store.realm, user, organization)}' is no longer using Zulip.`);
  }
  return [...users.values()];
}

export function addresseeFor(store: Store, type: MessageType, to: unknown, organization = false): Addressee {
  return type === 'stream'
    ? { type, stream: channelFromTo(store, to) }
    : { type, users: usersFromTo(store, to, organization) };
}

/** Every participant of a direct message, sender included, sorted. */
export function conversationIds(sender: User, users: User[]): number[] {
  return [...new Set([sender.user_id, ...users.map((u) => u.user_id)])].sort((a, b) => a - b);
}
