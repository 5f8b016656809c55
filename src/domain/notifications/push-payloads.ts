// The three forms of a push notification the real server hands to its push bouncer
// (zerver/lib/push_notifications.py): the FCM data payload of an Android device registered by
// token, the APNs payload of an iOS one, and the end-to-end encrypted form of a device
// registered for it (FL 413; what gets encrypted is recorded as `plaintext`, not encrypted).
// The `remove` forms take back notifications of messages read meanwhile.
import type { Store } from '../../store/store.js';
import type { Message, PushDevice, User } from '../../store/state.js';
import { avatarUrl } from '../users/avatar.js';
import { pushContent, truncateContent } from '../outbox/message-text.js';
import type { Trigger } from './triggers.js';

export interface PushContext {
  store: Store;
  /** The form of direct message recipients in E2EE payloads: recipient_user_ids from FL 429, pm_users before. */
  recipientUserIds: boolean;
}

/** A mentioned group containing the user, when the notification is due to that group's mention. */
export interface GroupMention {
  id: number;
  name: string;
}

function basePayload(store: Store, user: User): Record<string, unknown> {
  const { realm } = store;
  const host = new URL(realm.url).host;
  return {
    server: host,
    realm_id: realm.id,
    realm_name: realm.name,
    realm_uri: realm.url,
    realm_url: realm.url,
    user_id: user.user_id,
  };
}

const absolute = (store: Store, url: string) => (url.startsWith('/') ? `${store.realm.url}${url}` : url);
const isGroupDirect = (m: Message) => m.type === 'private' && m.recipient_ids.length > 2;

function messagePayload(
  store: Store,
  user: User,
  message: Message,
  group: GroupMention | null,
): Record<string, unknown> {
  const sender = store.users.get(message.sender_id)!;
  const data: Record<string, unknown> = {
    ...basePayload(store, user),
    sender_id: sender.user_id,
    sender_email: sender.email,
    time: message.timestamp,
  };
  if (group) Object.assign(data, { mentioned_user_group_id: group.id, mentioned_user_group_name: group.name });
  if (message.type === 'stream') {
    Object.assign(data, {
      recipient_type: 'stream',
      stream: store.streams.get(message.stream_id!)?.name ?? '',
      stream_id: message.stream_id,
      topic: message.topic,
    });
  } else {
    data.recipient_type = 'private';
    if (isGroupDirect(message)) data.pm_users = message.recipient_ids.join(',');
  }
  return data;
}

function androidPayload(
  store: Store,
  user: User,
  message: Message,
  group: GroupMention | null,
): Record<string, unknown> {
  const sender = store.users.get(message.sender_id)!;
  const [content, truncated] = truncateContent(pushContent(message.rendered_content));
  return {
    data: {
      ...messagePayload(store, user, message, group),
      event: 'message',
      zulip_message_id: message.id,
      content,
      content_truncated: truncated,
      sender_full_name: sender.full_name,
      sender_avatar_url: absolute(store, avatarUrl(sender)),
    },
    options: { priority: 'high' },
  };
}

function apnsTitle(store: Store, message: Message): string {
  if (isGroupDirect(message))
    return message.recipient_ids
      .map((id) => store.users.get(id)?.full_name ?? '')
      .sort()
      .join(', ');
  if (message.type === 'stream') return `#${store.streams.get(message.stream_id!)?.name ?? ''} > ${message.topic}`;
  return store.users.get(message.sender_id)!.full_name;
}

function apnsSubtitle(store: Store, message: Message, trigger: Trigger, group: GroupMention | null): string {
  const name = store.users.get(message.sender_id)!.full_name;
  if (trigger === 'mentioned') return group ? `${name} mentioned @${group.name}:` : `${name} mentioned you:`;
  // Topic and channel wildcards alike (get_apns_alert_subtitle has one wording for the four triggers).
  if (trigger.includes('wildcard_mentioned')) return `${name} mentioned everyone:`;
  if (message.type === 'private' && !isGroupDirect(message)) return '';
  return `${name}:`;
}

function iosPayload(
  store: Store,
  user: User,
  message: Message,
  trigger: Trigger,
  group: GroupMention | null,
): Record<string, unknown> {
  const [content] = truncateContent(pushContent(message.rendered_content));
  return {
    alert: { title: apnsTitle(store, message), subtitle: apnsSubtitle(store, message, trigger, group), body: content },
    sound: 'default',
    badge: 0,
    custom: { zulip: { ...messagePayload(store, user, message, group), message_ids: [message.id] } },
  };
}

function e2eePlaintext(
  ctx: PushContext,
  user: User,
  message: Message,
  group: GroupMention | null,
): Record<string, unknown> {
  const { store } = ctx;
  const sender = store.users.get(message.sender_id)!;
  const [content] = truncateContent(pushContent(message.rendered_content));
  const data: Record<string, unknown> = {
    type: 'message',
    message_id: message.id,
    realm_name: store.realm.name,
    realm_url: store.realm.url,
    user_id: user.user_id,
    sender_id: sender.user_id,
    sender_full_name: sender.full_name,
    sender_avatar_url: absolute(store, avatarUrl(sender)),
    time: message.timestamp,
    content,
  };
  if (group) Object.assign(data, { mentioned_user_group_id: group.id, mentioned_user_group_name: group.name });
  if (message.type === 'stream') {
    Object.assign(data, {
      recipient_type: 'channel',
      channel_id: message.stream_id,
      channel_name: store.streams.get(message.stream_id!)?.name ?? '',
      topic: message.topic,
    });
  } else {
    data.recipient_type = 'direct';
    if (ctx.recipientUserIds) data.recipient_user_ids = [...message.recipient_ids];
    else if (isGroupDirect(message)) data.pm_users = message.recipient_ids.join(',');
  }
  return data;
}

/** What the bouncer gets for an E2EE device: its push request, the encrypted data's plaintext beside it. */
function e2eeRequest(device: PushDevice, plaintext: Record<string, unknown>, alert: boolean): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    push_account_id: device.push_account_id ?? device.device_id,
    encrypted_data: null,
    plaintext,
  };
  if (device.push_token_kind === 'apns') {
    if (alert) payload.aps = { 'mutable-content': 1, alert: { title: 'New notification' } };
    return {
      device_id: device.device_id,
      http_headers: alert
        ? { apns_priority: 10, apns_push_type: 'alert' }
        : { apns_priority: 5, apns_push_type: 'background' },
      payload,
    };
  }
  return { device_id: device.device_id, fcm_priority: alert ? 'high' : 'normal', payload };
}

export type DeviceForm = 'android' | 'ios' | 'e2ee';

/** The form a device gets notifications in, or null: not registered for any. */
export function deviceForm(device: PushDevice, e2ee: boolean): DeviceForm | null {
  if (device.token !== undefined) return device.platform === 'ios' ? 'ios' : 'android';
  if (e2ee && device.push_key && device.push_token_id) return 'e2ee';
  return null;
}

export function messagePushPayload(
  ctx: PushContext,
  form: DeviceForm,
  device: PushDevice,
  user: User,
  message: Message,
  trigger: Trigger,
  group: GroupMention | null,
): Record<string, unknown> {
  if (form === 'android') return androidPayload(ctx.store, user, message, group);
  if (form === 'ios') return iosPayload(ctx.store, user, message, trigger, group);
  return e2eeRequest(device, e2eePlaintext(ctx, user, message, group), true);
}

export function removePushPayload(
  ctx: PushContext,
  form: DeviceForm,
  device: PushDevice,
  user: User,
  messageIds: number[],
): Record<string, unknown> {
  const { store } = ctx;
  const ids = messageIds.join(',');
  if (form === 'android')
    return {
      data: { ...basePayload(store, user), event: 'remove', zulip_message_ids: ids, zulip_message_id: messageIds[0] },
      options: { priority: 'normal' },
    };
  if (form === 'ios')
    return { badge: 0, custom: { zulip: { ...basePayload(store, user), event: 'remove', zulip_message_ids: ids } } };
  return e2eeRequest(
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
