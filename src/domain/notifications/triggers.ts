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
  for (const [key, flags] of Object.entries(message.flags)) {
    const userId = Number(key);
    if (userId === sender.user_id || muters.has(userId)) continue;
    const user = store.users.get(userId);
    if (!user || !user.is_active || user.is_bot) continue;
    const notice = message.type === 'private' ? directNotice(user) : channelNotice(store, user, message, flags);
    if (notice.push || notice.email) out.push(notice);
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

function channelNotice(store: Store, user: User, message: Message, flags: string[]): RecipientNotice {
  const sub = store.subscriptions.get(subscriptionKey(user.user_id, message.stream_id!));
  const visibility = currentVisibility(store, user.user_id, message.stream_id!, message.topic);
  const followed = visibility === Visibility.followed;
  // A muted topic, or a muted channel whose topic the user did not unmute or follow.
  const muted = visibility === Visibility.muted || (!!sub?.is_muted && visibility !== Visibility.unmuted && !followed);
  const wildcardsNotify = sub?.wildcard_mentions_notify ?? on(user, 'wildcard_mentions_notify');
  const offlinePush = on(user, 'enable_offline_push_notifications');
  const offlineEmail = on(user, 'enable_offline_email_notifications');
  const push: Trigger[] = [];
  const email: Trigger[] = [];
  const both = (trigger: Trigger, pushOn: boolean, emailOn: boolean) => {
    if (pushOn) push.push(trigger);
    if (emailOn) email.push(trigger);
  };
  if (flags.includes('mentioned')) both('mentioned', offlinePush, offlineEmail);
  for (const kind of ['topic_wildcard_mentioned', 'stream_wildcard_mentioned'] as const) {
    if (!flags.includes(kind)) continue;
    if (followed && on(user, 'enable_followed_topic_wildcard_mentions_notify'))
      both(`${kind}_in_followed_topic`, offlinePush, offlineEmail);
    else if (!muted && wildcardsNotify) both(kind, offlinePush, offlineEmail);
  }
  if (followed) both('followed_topic_push_notify', on(user, 'enable_followed_topic_push_notifications'), false);
  if (followed) both('followed_topic_email_notify', false, on(user, 'enable_followed_topic_email_notifications'));
  if (!muted && sub) {
    both('stream_push_notify', sub.push_notifications ?? on(user, 'enable_stream_push_notifications'), false);
    both('stream_email_notify', false, sub.email_notifications ?? on(user, 'enable_stream_email_notifications'));
  }
  const first = (list: Trigger[]) => TRIGGER_ORDER.find((t) => list.includes(t)) ?? null;
  return { user, push: first(push), email: first(email) };
}
