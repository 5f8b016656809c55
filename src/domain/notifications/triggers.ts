// Who the real server notifies off Zulip about a new message, and why (its
// zerver/lib/notification_data.py): per recipient, the push and email triggers, before the
// "is the user away" check of notify.ts. Direct messages and personal or group mentions notify
// whatever the channel or topic's muting; channel-level settings and wildcard mentions respect
// it; a followed topic has settings of its own; a muted sender notifies nobody.
import { subscriptionKey } from '../../store/store.js';
import type { Store } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import { currentVisibility } from '../user-topics/automatic.js';
import { Visibility } from '../user-topics/set-visibility.js';
import { mutersOf } from '../muted-users/mute.js';

/** The real server's NotificationTriggers, in the order it picks the one a notification names. */
const TRIGGER_ORDER = [
  'private_message',
  'mentioned',
  'topic_wildcard_mentioned_in_followed_topic',
  'stream_wildcard_mentioned_in_followed_topic',
  'topic_wildcard_mentioned',
  'stream_wildcard_mentioned',
  'followed_topic_push_notify',
  'followed_topic_email_notify',
  'stream_push_notify',
  'stream_email_notify',
] as const;
export type Trigger = (typeof TRIGGER_ORDER)[number];

export interface RecipientNotice {
  user: User;
  /** The push trigger, or null: no push notification. */
  push: Trigger | null;
  /** The email trigger, or null: no missed-message email. */
  email: Trigger | null;
}

const on = (user: User, setting: string) => user.settings[setting] === true;

/** Every recipient the message would notify by push or email if they were away, with the trigger. */
export function noticesFor(store: Store, message: Message): RecipientNotice[] {
  const sender = store.users.get(message.sender_id);
  if (!sender) return [];
  const muters = mutersOf(store, sender.user_id);
  const out: RecipientNotice[] = [];
  for (const key in message.flags) {
    const flags = message.flags[key];
    const userId = Number(key);
    if (userId === sender.user_id || muters.has(userId)) continue;
    const user = store.users.get(userId);
    if (!user || !user.is_active || user.is_bot) continue;
    const notice = message.type === 'private' ? directNotice(user) : channelNotice(store, user, message, flags);
    if (notice && (notice.push || notice.email)) out.push(notice);
  }
  return out;
}

function directNotice(user: User): RecipientNotice {
  return {
    user,
    push: on(user, 'enable_offline_push_notifications') ? 'private_message' : null,
    email: on(user, 'enable_offline_email_notifications') ? 'private_message' : null,
  };
}

const WILDCARD_KINDS = ['topic_wildcard_mentioned', 'stream_wildcard_mentioned'] as const;

/**
 * A channel message's triggers for one subscriber, or null when it has none (most subscribers).
 * The triggers are tried in TRIGGER_ORDER, so the first that applies is the one a notification
 * names; nothing is made for a subscriber it does not notify (this runs for every subscriber of
 * every channel message).
 */
function channelNotice(store: Store, user: User, message: Message, flags: string[]): RecipientNotice | null {
  const sub = store.subscriptions.get(subscriptionKey(user.user_id, message.stream_id!));
  const visibility = currentVisibility(store, user.user_id, message.stream_id!, message.topic);
  const followed = visibility === Visibility.followed;
  // A muted topic, or a muted channel whose topic the user did not unmute or follow.
  const muted = visibility === Visibility.muted || (!!sub?.is_muted && visibility !== Visibility.unmuted && !followed);
  const offlinePush = on(user, 'enable_offline_push_notifications');
  const offlineEmail = on(user, 'enable_offline_email_notifications');
  let push: Trigger | null = null;
  let email: Trigger | null = null;
  if (flags.includes('mentioned')) {
    if (offlinePush) push = 'mentioned';
    if (offlineEmail) email = 'mentioned';
  }
  for (const kind of WILDCARD_KINDS) {
    if (!flags.includes(kind)) continue;
    let trigger: Trigger | null = null;
    if (followed && on(user, 'enable_followed_topic_wildcard_mentions_notify')) trigger = `${kind}_in_followed_topic`;
    else if (!muted && (sub?.wildcard_mentions_notify ?? on(user, 'wildcard_mentions_notify'))) trigger = kind;
    if (trigger && offlinePush) push ??= trigger;
    if (trigger && offlineEmail) email ??= trigger;
  }
  if (followed && on(user, 'enable_followed_topic_push_notifications')) push ??= 'followed_topic_push_notify';
  if (followed && on(user, 'enable_followed_topic_email_notifications')) email ??= 'followed_topic_email_notify';
  if (!muted && sub) {
    if (sub.push_notifications ?? on(user, 'enable_stream_push_notifications')) push ??= 'stream_push_notify';
    if (sub.email_notifications ?? on(user, 'enable_stream_email_notifications')) email ??= 'stream_email_notify';
  }
  return push || email ? { user, push, email } : null;
}
