// Subscribing users to a channel: the subscription rows (with a colour each user does not use
// yet, from the real server's palette) and the events: `subscription/add` to each new
// subscriber and `subscription/peer_add` to the others who can see the subscriber list.
import type { Ctx } from '../context.js';
import type { Stream, Subscription } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import { subscriptionKey } from '../../store/store.js';
import { channelActivity } from './activity.js';
import { metadataAudience } from './audience.js';
import { subscriberIds } from './access.js';
import { subscriptionToDict } from './subscription-dict.js';

export const STREAM_COLORS = [
  '#76ce90',
  '#fae589',
  '#a6c7e5',
  '#e79ab5',
  '#bfd56f',
  '#f4ae55',
  '#b0a5fd',
  '#addfe5',
  '#f5ce6e',
  '#c2726a',
  '#94c849',
  '#bd86e5',
  '#ee7e4a',
  '#a6dcbf',
  '#95a5fd',
  '#53a063',
  '#9987e1',
  '#e4523d',
  '#c2c2c2',
  '#4f8de4',
  '#c6a8ad',
  '#e7cc4d',
  '#c8bebf',
  '#a47462',
];

/** The first palette colour the user does not use yet; past the palette, round again. */
function pickColor(store: Store, userId: number): string {
  const used = [...store.subscriptions.group('user', userId)].map((s) => s.color);
  return STREAM_COLORS.find((c) => !used.includes(c)) ?? STREAM_COLORS[used.length % STREAM_COLORS.length];
}

/**
 * Subscribes the users who are not subscribed yet; returns their IDs. `color`, when given, is
 * the new subscriptions' colour instead of the next free one of the palette.
 */
export function addSubscriptions(ctx: Ctx, stream: Stream, userIds: number[], color?: string): number[] {
  const { store } = ctx;
  const added: number[] = [];
  for (const userId of userIds) {
    const key = subscriptionKey(userId, stream.stream_id);
    if (store.subscriptions.has(key)) continue;
    // Subscribing again brings back the colour the user had for the channel.
    const former = store.formerSubscriptions.get(key);
    if (former) store.formerSubscriptions.remove(former);
    const row: Subscription = {
      user_id: userId,
      stream_id: stream.stream_id,
      color: color ?? former?.color ?? pickColor(store, userId),
      is_muted: false,
      pin_to_top: false,
      desktop_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
      // A channel's default turns push notifications on for a first subscription only (507);
      // someone subscribing again (a former subscription) keeps the inherited setting.
      push_notifications: !former && stream.default_push_notifications === true ? true : null,
      audible_notifications: null,
    };
    store.subscriptions.insert(row);
    added.push(userId);
  }
  if (!added.length) return added;

  const activity = channelActivity(store, ctx.clock.now());
  const subscribers = subscriberIds(store, stream.stream_id);
  for (const userId of added) {
    const sub = store.subscriptions.get(subscriptionKey(userId, stream.stream_id))!;
    // The dict is made for this event: extended in place (a spread of its forty fields with one
    // more after them takes V8 a slow path, 4 µs here).
    const dict = subscriptionToDict(store, sub, stream, activity);
    dict.subscribers = subscribers;
    ctx.events.publish([userId], { type: 'subscription', op: 'add', subscriptions: [dict] });
  }
  const peers = metadataAudience(store, stream).filter((id) => !added.includes(id));
  if (peers.length) {
    ctx.events.publish(peers, {
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [stream.stream_id],
      user_ids: added,
    });
  }
  return added;
}
