// The three forms of a push notification the real server hands to its push bouncer
// (zerver/lib/push_notifications.py): the FCM data payload of an Android device registered by
// token, the APNs payload of an iOS one, and the end-to-end encrypted form of a device
// registered for it (FL 413: the JSON of api_docs/mobile-notifications.md, sealed with the
// device's push key by push/e2ee-envelope.ts). The `remove` forms take back notifications of
// messages read meanwhile.
import type { Store } from '../../store/store.js';
import type { Message, PushDevice, User } from '../../store/state.js';
import { avatarUrl } from '../users/avatar.js';
import { e2eePushRequest } from '../push/e2ee-envelope.js';
import { basePayload, basePayloadOf } from '../push/legacy-payloads.js';
import { pushContent, truncateContent } from '../outbox/message-text.js';
import type { Trigger } from './triggers.js';

export interface PushContext {
  store: Store;
  /** The form of direct message recipients in E2EE payloads: recipient_user_ids from FL 429, pm_users before. */
  recipientUserIds: boolean;
  /** E2EE push requests name the key by push_key_id from FL 468, by push_account_id before. */
  byKeyId: boolean;
  /**
   * The legacy forms say "New message" instead of the text: the organization requires E2EE
   * notifications (require_e2ee_push_notifications, FL 409) and the level still sends them.
   */
  redactLegacy?: boolean;
}

/**
 * A notification for one device: what the push bouncer gets and, for the E2EE form, the JSON
 * its encrypted_data seals (the mock's own addition, so that a test need not decrypt).
 */
export interface DevicePush {
  payload: Record<string, unknown>;
  plaintext?: Record<string, unknown>;
}

/** A mentioned group containing the user, when the notification is due to that group's mention. */
export interface GroupMention {
  id: number;
  name: string;
}

const absolute = (realmUrl: string, url: string) => (url.startsWith('/') ? `${realmUrl}${url}` : url);

/**
 * What the notifications of one message to one user are built from, copied when it is sent: the
 * payloads are built later (when the outbox item is first read), and a later edit, rename or new
 * avatar must not change a notification already sent. Strings and numbers only (and arrays the
 * store never changes in place), so taking it costs a few field reads.
 */
interface PushSnapshot {
  realm: { id: number; name: string; url: string };
  userId: number;
  message: Pick<Message, 'id' | 'type' | 'stream_id' | 'topic' | 'recipient_ids' | 'rendered_content' | 'timestamp'>;
  sender: Pick<User, 'user_id' | 'email' | 'full_name' | 'delivery_email' | 'avatar_path' | 'avatar_version'>;
  /** The channel's name ('' for a direct message). */
  channel: string;
  /** A group direct message's participants' names, sorted (the APNs title); null otherwise. */
  participants: string | null;
  group: GroupMention | null;
  trigger: Trigger;
  recipientUserIds: boolean;
  byKeyId: boolean;
  redactLegacy: boolean;
}

/** What legacy notifications say instead of the message when the organization requires E2EE. */
const REDACTED_CONTENT = 'New message';

const isGroupDirect = (m: Pick<Message, 'type' | 'recipient_ids'>) =>
  m.type === 'private' && m.recipient_ids.length > 2;

function takeSnapshot(
  ctx: PushContext,
  user: User,
  message: Message,
  trigger: Trigger,
  group: GroupMention | null,
): PushSnapshot {
  const { store } = ctx;
  const { realm } = store;
  const sender = store.users.get(message.sender_id)!;
  return {
    realm: { id: realm.id, name: realm.name, url: realm.url },
    userId: user.user_id,
    message: {
      id: message.id,
      type: message.type,
      stream_id: message.stream_id,
      topic: message.topic,
      recipient_ids: message.recipient_ids,
      rendered_content: message.rendered_content,
      timestamp: message.timestamp,
    },
    sender: {
      user_id: sender.user_id,
      email: sender.email,
      full_name: sender.full_name,
      delivery_email: sender.delivery_email,
      avatar_path: sender.avatar_path,
      avatar_version: sender.avatar_version,
    },
    channel: message.type === 'stream' ? (store.streams.get(message.stream_id!)?.name ?? '') : '',
    participants: isGroupDirect(message)
      ? message.recipient_ids
          .map((id) => store.users.get(id)?.full_name ?? '')
          .sort()
          .join(', ')
      : null,
    group: group && { id: group.id, name: group.name },
    trigger,
    recipientUserIds: ctx.recipientUserIds,
    byKeyId: ctx.byKeyId,
    redactLegacy: !!ctx.redactLegacy,
  };
}

/** What every form of one message's notification shares, built once however many devices it goes to. */
interface MessageFacts {
  s: PushSnapshot;
  /** The text, cut at 200 characters, and whether it was cut. */
  content: [string, boolean];
  /** The legacy forms' common fields (basePayload and the sender, the conversation). */
  common: Record<string, unknown>;
  avatarUrl: string;
}

function messageFacts(s: PushSnapshot): MessageFacts {
  const { message, sender, group } = s;
  const common: Record<string, unknown> = {
    ...basePayloadOf(s.realm, s.userId),
    sender_id: sender.user_id,
    sender_email: sender.email,
    time: message.timestamp,
  };
  if (group) Object.assign(common, { mentioned_user_group_id: group.id, mentioned_user_group_name: group.name });
  if (message.type === 'stream') {
    Object.assign(common, {
      recipient_type: 'stream',
      stream: s.channel,
      stream_id: message.stream_id,
      topic: message.topic,
    });
  } else {
    common.recipient_type = 'private';
    if (isGroupDirect(message)) common.pm_users = message.recipient_ids.join(',');
  }
  const content = truncateContent(pushContent(message.rendered_content));
  return { s, content, common, avatarUrl: absolute(s.realm.url, avatarUrl(sender)) };
}

/** The text of a legacy form: the message's, or "New message" where the organization requires E2EE. */
const legacyContent = (f: MessageFacts): [string, boolean] =>
  f.s.redactLegacy ? [REDACTED_CONTENT, false] : f.content;

function androidPayload(f: MessageFacts): Record<string, unknown> {
  const [content, truncated] = legacyContent(f);
  return {
    data: {
      ...f.common,
      event: 'message',
      zulip_message_id: f.s.message.id,
      content,
      content_truncated: truncated,
      sender_full_name: f.s.sender.full_name,
      sender_avatar_url: f.avatarUrl,
    },
    options: { priority: 'high' },
  };
}

function apnsTitle(s: PushSnapshot): string {
  if (s.participants !== null) return s.participants;
  if (s.message.type === 'stream') return `#${s.channel} > ${s.message.topic}`;
  return s.sender.full_name;
}

function apnsSubtitle(s: PushSnapshot): string {
  const { trigger, group, message } = s;
  const name = s.sender.full_name;
  if (trigger === 'mentioned') return group ? `${name} mentioned @${group.name}:` : `${name} mentioned you:`;
  // Topic and channel wildcards alike (get_apns_alert_subtitle has one wording for the four triggers).
  if (trigger.includes('wildcard_mentioned')) return `${name} mentioned everyone:`;
  if (message.type === 'private' && !isGroupDirect(message)) return '';
  return `${name}:`;
}

function iosPayload(f: MessageFacts): Record<string, unknown> {
  return {
    alert: {
      title: apnsTitle(f.s),
      subtitle: apnsSubtitle(f.s),
      body: legacyContent(f)[0],
    },
    sound: 'default',
    badge: 0,
    custom: { zulip: { ...f.common, message_ids: [f.s.message.id] } },
  };
}

function e2eePlaintext(f: MessageFacts): Record<string, unknown> {
  const { s } = f;
  const { message, sender, group } = s;
  const data: Record<string, unknown> = {
    type: 'message',
    message_id: message.id,
    realm_name: s.realm.name,
    realm_url: s.realm.url,
    user_id: s.userId,
    sender_id: sender.user_id,
    sender_full_name: sender.full_name,
    sender_avatar_url: f.avatarUrl,
    time: message.timestamp,
    content: f.content[0],
  };
  if (group) Object.assign(data, { mentioned_user_group_id: group.id, mentioned_user_group_name: group.name });
  if (message.type === 'stream') {
    Object.assign(data, {
      recipient_type: 'channel',
      channel_id: message.stream_id,
      channel_name: s.channel,
      topic: message.topic,
    });
  } else {
    data.recipient_type = 'direct';
    if (s.recipientUserIds) data.recipient_user_ids = [...message.recipient_ids];
    else if (isGroupDirect(message)) data.pm_users = message.recipient_ids.join(',');
  }
  return data;
}

/** The E2EE form: the push request carrying `data` sealed for the device, and `data` itself. */
function e2eePush(byKeyId: boolean, device: PushDevice, data: Record<string, unknown>, alert: boolean): DevicePush {
  return { payload: e2eePushRequest(device, data, { alert, byKeyId }), plaintext: data };
}

export type DeviceForm = 'android' | 'ios' | 'e2ee';

/**
 * The form a device gets notifications in, or null: not registered for any. An E2EE device
 * needs a push key and a token the relay confirmed (FL 468), or a FL 406-467 registration.
 */
export function deviceForm(device: PushDevice, e2ee: boolean): DeviceForm | null {
  if (device.token !== undefined) return device.platform === 'ios' ? 'ios' : 'android';
  if (e2ee && device.push_key && (device.push_token_id || device.push_account_id !== undefined)) return 'e2ee';
  return null;
}

/** A device's notification, to be built later (see LazyPush of the outbox). */
export interface LazyDevicePush {
  build: () => DevicePush;
  /** About the size of the outbox item it becomes (the byte bound's estimate until it is built). */
  estimate: number;
}

/**
 * The notifications of a message for one user, device by device, built later from what the
 * message, the user, the sender and the device are now: what the forms share (the text, the
 * common fields, the E2EE JSON) is built once for all the user's devices, when the first is.
 */
export function messagePushes(
  ctx: PushContext,
  user: User,
  message: Message,
  trigger: Trigger,
  group: GroupMention | null,
): (form: DeviceForm, device: PushDevice) => LazyDevicePush {
  const snapshot = takeSnapshot(ctx, user, message, trigger, group);
  let facts: MessageFacts | null = null;
  let e2eeData: Record<string, unknown> | null = null;
  const size = estimatedStrings(snapshot);
  return (form, liveDevice) => {
    // The device as it is now: a key changed later seals none of the notifications sent before.
    const device = { ...liveDevice };
    const build = (): DevicePush => {
      facts ??= messageFacts(snapshot);
      if (form === 'android') return { payload: androidPayload(facts) };
      if (form === 'ios') return { payload: iosPayload(facts) };
      e2eeData ??= e2eePlaintext(facts);
      return e2eePush(snapshot.byKeyId, device, e2eeData, true);
    };
    return { build, estimate: form === 'e2ee' ? E2EE_FIXED + Math.ceil((size * 7) / 3) : LEGACY_FIXED + size };
  };
}

/**
 * The variable text of a notification, in UTF-16 units, for the size estimate: the realm's URL
 * appears three times in the legacy forms, the text at most 200 characters and an ellipsis
 * (the message's HTML may be far longer), the avatar's URL about 90 for a Gravatar.
 */
function estimatedStrings(s: PushSnapshot): number {
  return (
    3 * s.realm.url.length +
    s.realm.name.length +
    s.sender.email.length +
    2 * s.sender.full_name.length +
    (s.sender.avatar_path ? s.sender.avatar_path.length + 40 : 90) +
    s.channel.length +
    2 * s.message.topic.length +
    (s.participants?.length ?? 0) +
    (s.group?.name.length ?? 0) +
    Math.min(s.message.rendered_content.length, 201) +
    6 * s.message.recipient_ids.length
  );
}

/** The rest of an item's estimate: its keys, numbers and fixed strings (about what approxJsonSize counts of them). */
const LEGACY_FIXED = 640;
const E2EE_FIXED = 850;

export function removePushPayload(
  ctx: PushContext,
  form: DeviceForm,
  device: PushDevice,
  user: User,
  messageIds: number[],
): DevicePush {
  const { store } = ctx;
  const ids = messageIds.join(',');
  if (form === 'android')
    return {
      payload: {
        data: { ...basePayload(store, user), event: 'remove', zulip_message_ids: ids, zulip_message_id: messageIds[0] },
        options: { priority: 'normal' },
      },
    };
  if (form === 'ios')
    return {
      payload: {
        badge: 0,
        custom: { zulip: { ...basePayload(store, user), event: 'remove', zulip_message_ids: ids } },
      },
    };
  return e2eePush(
    ctx.byKeyId,
    device,
    {
      type: 'remove',
      message_ids: messageIds,
      realm_name: store.realm.name,
      realm_url: store.realm.url,
      user_id: user.user_id,
    },
    false,
  );
}
