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
import { basePayload } from '../push/legacy-payloads.js';
import { pushContent, truncateContent } from '../outbox/message-text.js';
import type { Trigger } from './triggers.js';

export interface PushContext {
  store: Store;
  /** The form of direct message recipients in E2EE payloads: recipient_user_ids from FL 429, pm_users before. */
  recipientUserIds: boolean;
  /** E2EE push requests name the key by push_key_id from FL 468, by push_account_id before. */
  byKeyId: boolean;
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

const absolute = (store: Store, url: string) => (url.startsWith('/') ? `${store.realm.url}${url}` : url);
const isGroupDirect = (m: Message) => m.type === 'private' && m.recipient_ids.length > 2;

/** What every form of one message's notification shares, built once however many devices it goes to. */
interface MessageFacts {
  store: Store;
  user: User;
  message: Message;
  sender: User;
  group: GroupMention | null;
  /** The text, cut at 200 characters, and whether it was cut. */
  content: [string, boolean];
  /** The legacy forms' common fields (basePayload and the sender, the conversation). */
  common: Record<string, unknown>;
}

function messageFacts(store: Store, user: User, message: Message, group: GroupMention | null): MessageFacts {
  const sender = store.users.get(message.sender_id)!;
  const common: Record<string, unknown> = {
    ...basePayload(store, user),
    sender_id: sender.user_id,
    sender_email: sender.email,
    time: message.timestamp,
  };
  if (group) Object.assign(common, { mentioned_user_group_id: group.id, mentioned_user_group_name: group.name });
  if (message.type === 'stream') {
    Object.assign(common, {
      recipient_type: 'stream',
      stream: store.streams.get(message.stream_id!)?.name ?? '',
      stream_id: message.stream_id,
      topic: message.topic,
    });
  } else {
    common.recipient_type = 'private';
    if (isGroupDirect(message)) common.pm_users = message.recipient_ids.join(',');
  }
  const content = truncateContent(pushContent(message.rendered_content));
  return { store, user, message, sender, group, content, common };
}

function androidPayload(f: MessageFacts): Record<string, unknown> {
  const [content, truncated] = f.content;
  return {
    data: {
      ...f.common,
      event: 'message',
      zulip_message_id: f.message.id,
      content,
      content_truncated: truncated,
      sender_full_name: f.sender.full_name,
      sender_avatar_url: absolute(f.store, avatarUrl(f.sender)),
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

function iosPayload(f: MessageFacts, trigger: Trigger): Record<string, unknown> {
  const { store, message } = f;
  return {
    alert: {
      title: apnsTitle(store, message),
      subtitle: apnsSubtitle(store, message, trigger, f.group),
      body: f.content[0],
    },
    sound: 'default',
    badge: 0,
    custom: { zulip: { ...f.common, message_ids: [message.id] } },
  };
}

function e2eePlaintext(ctx: PushContext, f: MessageFacts): Record<string, unknown> {
  const { store, message, sender, group } = f;
  const data: Record<string, unknown> = {
    type: 'message',
    message_id: message.id,
    realm_name: store.realm.name,
    realm_url: store.realm.url,
    user_id: f.user.user_id,
    sender_id: sender.user_id,
    sender_full_name: sender.full_name,
    sender_avatar_url: absolute(store, avatarUrl(sender)),
    time: message.timestamp,
    content: f.content[0],
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

/** The E2EE form: the push request carrying `data` sealed for the device, and `data` itself. */
function e2eePush(ctx: PushContext, device: PushDevice, data: Record<string, unknown>, alert: boolean): DevicePush {
  return { payload: e2eePushRequest(device, data, { alert, byKeyId: ctx.byKeyId }), plaintext: data };
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

/**
 * The notifications of a message for one user, device by device: what the forms share (the text,
 * the common fields, the E2EE JSON) is built once for all the user's devices.
 */
export function messagePushes(
  ctx: PushContext,
  user: User,
  message: Message,
  trigger: Trigger,
  group: GroupMention | null,
): (form: DeviceForm, device: PushDevice) => DevicePush {
  const facts = messageFacts(ctx.store, user, message, group);
  let e2eeData: Record<string, unknown> | null = null;
  return (form, device) => {
    if (form === 'android') return { payload: androidPayload(facts) };
    if (form === 'ios') return { payload: iosPayload(facts, trigger) };
    e2eeData ??= e2eePlaintext(ctx, facts);
    return e2eePush(ctx, device, e2eeData, true);
  };
}

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
    ctx,
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
