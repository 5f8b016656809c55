// One subscription as the API shows it (spec 2.8): the channel's fields plus the user's personal
// settings. Null notification settings stay null: clients apply the user's defaults.
import type { Store } from '../../store/store.js';
import type { Stream, Subscription } from '../../store/state.js';
import type { ChannelActivity } from '../channels/activity.js';
import { streamToDict } from '../channels/stream-dict.js';

export function subscriptionToDict(store: Store, sub: Subscription, stream: Stream, activity: ChannelActivity): Record<string, unknown> {
  return {
    ...streamToDict(store, stream, activity),
    color: sub.color,
    is_muted: sub.is_muted,
    in_home_view: !sub.is_muted,
    pin_to_top: sub.pin_to_top,
    desktop_notifications: sub.desktop_notifications,
    email_notifications: sub.email_notifications,
    wildcard_mentions_notify: sub.wildcard_mentions_notify,
    push_notifications: sub.push_notifications,
    audible_notifications: sub.audible_notifications,
  };
}
