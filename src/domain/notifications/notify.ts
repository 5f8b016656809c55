// Off-Zulip notifications of a new message, as the real server's event queue server decides them
// (zerver/tornado/event_queue.py): for each recipient the triggers.ts rules name, a push
// notification to each registered device when the user is away (no queue that takes messages,
// or no activity for 140 seconds) or has online push notifications on, and a missed-message
// email (away users only). Recorded in the world's outbox; `remove` notifications follow reads.
// As on the real server, where the event queue server and the queue workers do this after the
// message is sent, the work runs after the sender's answer (the outbox's send queue).
import type { Message, User } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import type { WorldCtx } from '../context.js';
import { outboxOf } from '../outbox/outbox.js';
import { queueMissedMessageEmail } from '../outbox/missed-message-email.js';
import { groupMemberIds } from '../group-settings/membership.js';
import { deviceForm, messagePushes, removePushPayload, type GroupMention, type PushContext } from './push-payloads.js';
import { settingValue } from '../realm/setting-values.js';
import { noticesFor } from './triggers.js';

/** The real server's OFFLINE_THRESHOLD_SECS: a user whose clients reported no activity for this long is idle. */
const OFFLINE_THRESHOLD_SECONDS = 140;

/** What the send path knows of the mentions (group mentions name the group in the notification). */
export interface MentionInfo {
  mentionedUserIds: ReadonlySet<number>;
  mentionedGroupIds: ReadonlySet<number>;
}

/** What a level says of notifications (see behaviours.yaml). */
interface LevelTraits {
  e2ee: boolean;
  recipientUserIds: boolean;
  byKeyId: boolean;
  /** Whether an organization requiring E2EE gets no legacy notifications at all (FL 500-501, 504 on). */
  requiredWithholds: boolean;
}

const NEWEST_TRAITS: LevelTraits = { e2ee: true, recipientUserIds: true, byKeyId: true, requiredWithholds: true };

/**
 * The traits by `supports` function: a request's is made once per feature level and answers the
 * same for good (asking it four times was a microsecond of every sent message).
 */
const TRAITS = new WeakMap<(b: string) => boolean, LevelTraits>();

function levelTraits(supports: ((b: string) => boolean) | undefined): LevelTraits {
  if (!supports) return NEWEST_TRAITS;
  let traits = TRAITS.get(supports);
  if (!traits)
    TRAITS.set(
      supports,
      (traits = {
        e2ee: supports('e2ee_push_notifications'),
        recipientUserIds: supports('e2ee_push_recipient_user_ids'),
        byKeyId: supports('e2ee_push_key_id'),
        requiredWithholds: supports('e2ee_required_withholds_legacy'),
      }),
    );
  return traits;
}

/** Feature-level traits of the notifications a world sends (see behaviours.yaml). */
function pushContext(world: WorldCtx): PushContext & { e2ee: boolean; withholdLegacy: boolean } {
  const traits = levelTraits((world as { supports?: (b: string) => boolean }).supports);
  // An organization requiring E2EE notifications (FL 409) gets legacy ones without their text;
  // at 500-501 and from 504 none at all (behaviours.yaml).
  const requireE2ee = settingValue(world.store, 'require_e2ee_push_notifications') === true;
  const withholdLegacy = requireE2ee && traits.requiredWithholds;
  return {
    store: world.store,
    e2ee: traits.e2ee,
    recipientUserIds: traits.recipientUserIds,
    byKeyId: traits.byKeyId,
    redactLegacy: requireE2ee && !withholdLegacy,
    withholdLegacy,
  };
}

/** What the notifications of a sent message are built with, taken when it was sent. */
interface Sending {
  world: WorldCtx;
  /** The request's level decides the forms. */
  ctx: PushContext & { e2ee: boolean; withholdLegacy: boolean };
  /** Mock-clock time of the sending, ms: the items' time, and the start of an email's batching period. */
  sentMs: number;
}

/** receiver_is_off_zulip, or idle by presence (at the time of sending). */
function isAway(sending: Sending, user: User): boolean {
  if (!(sending.world.events.receivesMessages?.(user.user_id) ?? false)) return true;
  const active = user.presence?.active_timestamp ?? 0;
  return active < Math.floor(sending.sentMs / 1000) - OFFLINE_THRESHOLD_SECONDS;
}

/** The group whose mention notified the user, when no personal mention did. */
function groupMentionFor(store: Store, user: User, mentions: MentionInfo): GroupMention | null {
  if (mentions.mentionedUserIds.has(user.user_id)) return null;
  for (const id of mentions.mentionedGroupIds) {
    if (!groupMemberIds(store, id).has(user.user_id)) continue;
    const group = store.userGroups.get(id)!;
    return { id: group.id, name: group.name };
  }
  return null;
}

/**
 * The one call of the send path: every off-Zulip notification the new message causes, built and
 * recorded once the sender has been answered (the outbox's readers wait for it).
 */
export function notifyOffZulip(world: WorldCtx, message: Message, mentions: MentionInfo): void {
  const { store, events, clock } = world;
  // Only the world's parts are kept: the request's context is done with once it is answered.
  const sending: Sending = { world: { store, events, clock }, ctx: pushContext(world), sentMs: clock.nowMs() };
  const messageId = message.id;
  outboxOf(store).queue.defer(() => notifyNow(sending, messageId, mentions));
}

function notifyNow(sending: Sending, messageId: number, mentions: MentionInfo): void {
  const { world, ctx, sentMs } = sending;
  const { store } = world;
  // Deleted meanwhile: the real worker finds no message to notify of either.
  const message = store.messages.get(messageId);
  if (!message) return;
  const notices = noticesFor(store, message);
  if (!notices.length) return;
  const outbox = outboxOf(store);
  for (const { user, push, email } of notices) {
    const away = isAway(sending, user);
    if (email && away) {
      const group = email === 'mentioned' ? groupMentionFor(store, user, mentions) : null;
      queueMissedMessageEmail(world, user, message, { trigger: email, group: group?.name ?? null }, sentMs);
    }
    if (!push || !store.realm.push_notifications_enabled) continue;
    if (!away && !user.settings.enable_online_push_notifications) continue;
    // As the real worker: a message read before its turn came is not notified.
    if (message.flags[String(user.user_id)]?.includes('read')) continue;
    const group = push === 'mentioned' ? groupMentionFor(store, user, mentions) : null;
    let pushes: ReturnType<typeof messagePushes> | null = null;
    for (const device of store.pushDevices.filter((d) => d.user_id === user.user_id)) {
      const form = deviceForm(device, ctx.e2ee);
      if (!form || (ctx.withholdLegacy && form !== 'e2ee')) continue;
      pushes ??= messagePushes(ctx, user, message, push, group);
      // Built when first read: most notifications of a busy mock never are (see the outbox).
      const { build, estimate } = pushes(form, device);
      outbox.recordLazy(
        {
          head: {
            kind: 'push',
            user_id: user.user_id,
            device_id: device.device_id,
            form,
            event: 'message',
            message_ids: [message.id],
          },
          build,
          estimate,
        },
        sentMs,
      );
    }
    if (pushes) outbox.notePushed(message.id, user.user_id, push);
  }
}

/** Takes back a user's push notifications of these messages, on each of their devices. */
function sendRemove(world: WorldCtx, user: User, messageIds: number[]): void {
  const ctx = pushContext(world);
  const outbox = outboxOf(world.store);
  const now = world.clock.nowMs();
  for (const device of world.store.pushDevices.filter((d) => d.user_id === user.user_id)) {
    const form = deviceForm(device, ctx.e2ee);
    if (!form || (ctx.withholdLegacy && form !== 'e2ee')) continue;
    outbox.record(
      {
        kind: 'push',
        user_id: user.user_id,
        device_id: device.device_id,
        form,
        event: 'remove',
        message_ids: messageIds,
        ...removePushPayload(ctx, form, device, user, messageIds),
      },
      now,
    );
  }
}

const MENTION_TRIGGERS = new Set([
  'mentioned',
  'topic_wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned_in_followed_topic',
  'stream_wildcard_mentioned_in_followed_topic',
]);

/**
 * Watches the world's messages: a notified message read by its recipient, an edit that takes
 * away the mention a notification was for, or a deleted message, takes the notification back.
 * The messages one request changes go out together, one `remove` per device, as the real
 * server batches them.
 */
export function watchForRemovals(world: WorldCtx): () => void {
  const { store } = world;
  const batch = new Map<number, number[]>();
  const flush = () => {
    for (const [userId, ids] of batch) {
      const user = store.users.get(userId);
      if (user)
        sendRemove(
          world,
          user,
          ids.sort((a, b) => a - b),
        );
    }
    batch.clear();
  };
  return store.onChange((change) => {
    if (change.t === 'load' || change.t === 'realm' || change.c !== 'messages' || change.t === 'insert') return;
    if (change.t === 'update' && !('flags' in change.patch)) return;
    const messageId = Number(change.key);
    const outbox = outboxOf(store);
    const users = outbox.pushedFor(messageId);
    if (!users) return;
    const message = change.t === 'update' ? store.messages.get(messageId) : undefined;
    for (const [userId, trigger] of [...users]) {
      const flags = message?.flags[String(userId)];
      const gone =
        !flags ||
        flags.includes('read') ||
        (MENTION_TRIGGERS.has(trigger) && !flags.some((f) => f.endsWith('mentioned')));
      if (!gone) continue;
      outbox.forgetPushed(messageId, userId);
      if (!batch.size) queueMicrotask(flush);
      batch.set(userId, [...(batch.get(userId) ?? []), messageId]);
    }
  });
}
