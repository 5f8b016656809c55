// DELETE /users/me/subscriptions: unsubscribe the caller, or the principals, from channels by
// name. Removing anyone but oneself or one's own bots needs the permission to remove
// subscribers from every named channel. Each removed user gets subscription/remove, the others
// who can see the channel subscription/peer_remove, and a user who can no longer see the
// channel at all a stream/delete.
import { badRequest } from '../../errors.js';
import type { Ctx, ParamsOf } from '../context.js';
import type { Stream, User } from '../../store/state.js';
import { subscriptionKey } from '../../store/store.js';
import { hasMetadataAccess, streamByName } from '../channels/access.js';
import { metadataAudience } from '../channels/audience.js';
import { checkChannelName } from '../channels/names.js';
import { channelDeletionFor } from '../channels/deletion-event.js';
import { checkCanRemoveSubscribers, controlsUser, principalUsers } from './principals.js';

/** The operation's parameters, typed from the description. */
type UnsubscribeParams = ParamsOf<'unsubscribe'>;

function removeFromChannel(
  ctx: Ctx,
  stream: Stream,
  users: User[],
  result: { removed: string[]; not_removed: string[] },
): void {
  const { store } = ctx;
  const audienceBefore = metadataAudience(store, stream);
  const removedIds: number[] = [];
  for (const user of users) {
    const sub = store.subscriptions.get(subscriptionKey(user.user_id, stream.stream_id));
    if (!sub) {
      result.not_removed.push(stream.name);
      continue;
    }
    store.subscriptions.remove(sub);
    // Kept as the real server keeps an inactive subscription: the channel is "unsubscribed".
    const former = store.formerSubscriptions.get(subscriptionKey(user.user_id, stream.stream_id));
    if (former) store.formerSubscriptions.remove(former);
    store.formerSubscriptions.insert({ ...sub });
    removedIds.push(user.user_id);
    result.removed.push(stream.name);
  }
  if (!removedIds.length) return;
  ctx.events.publish(removedIds, {
    type: 'subscription',
    op: 'remove',
    subscriptions: [{ name: stream.name, stream_id: stream.stream_id }],
  });
  const peers = audienceBefore.filter((id) => !removedIds.includes(id));
  if (peers.length)
    ctx.events.publish(peers, {
      type: 'subscription',
      op: 'peer_remove',
      stream_ids: [stream.stream_id],
      user_ids: removedIds,
    });
  const lostAccess = removedIds.filter((id) => !hasMetadataAccess(store, store.users.get(id)!, stream));
  if (lostAccess.length) {
    const deletion = channelDeletionFor(store, [stream], ctx.clock.now());
    ctx.events.publish(lostAccess, deletion(), (_q, _u, queue) => deletion(queue));
  }
}

/** An unsubscription request every check passed for: who leaves which channels. */
export interface CheckedUnsubscription {
  users: User[];
  streams: Stream[];
}

/**
 * Every check of DELETE /users/me/subscriptions, without changing anything. `aboutToExist`:
 * lower-cased names of channels the same request creates first (they are not missing).
 */
export function checkUnsubscribe(
  ctx: Ctx,
  p: Pick<UnsubscribeParams, 'subscriptions' | 'principals'>,
  aboutToExist: ReadonlySet<string> = new Set(),
): CheckedUnsubscription {
  const { store, actor } = ctx;
  const names = p.subscriptions.map((n) => checkChannelName(n));
  let users: User[] = [actor];
  let others = false;
  if (p.principals?.length) {
    // Below feature level 163 API emails are as the organization's email_address_visibility gives them.
    users = principalUsers(store, p.principals, !ctx.supports('email_visibility_per_user'));
    others = users.some((u) => !controlsUser(actor, u));
  }
  const streams: Stream[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const stream = streamByName(store, name);
    if (stream) {
      if (!streams.includes(stream)) streams.push(stream);
    } else if (!aboutToExist.has(name.toLowerCase())) missing.push(name);
  }
  // The permission is checked on the channels that exist before unknown names are reported.
  if (others) checkCanRemoveSubscribers(store, actor, streams);
  if (missing.length) throw badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  return { users, streams };
}

export function applyUnsubscribe(
  ctx: Ctx,
  checked: CheckedUnsubscription,
): { removed: string[]; not_removed: string[] } {
  const result = { removed: [] as string[], not_removed: [] as string[] };
  for (const stream of checked.streams) removeFromChannel(ctx, stream, checked.users, result);
  return result;
}

export function unsubscribe(ctx: Ctx, p: UnsubscribeParams): { removed: string[]; not_removed: string[] } {
  return applyUnsubscribe(ctx, checkUnsubscribe(ctx, p));
}
