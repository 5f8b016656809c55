// POST /users/me/subscriptions: subscribe the caller, or the principals, to channels by name.
// Names that match no channel create it (through create-channel's checks and events). Every
// check runs before anything changes (PATCH /users/me/subscriptions relies on it). Existing
// channels the caller cannot read are refused, or skipped when authorization_errors_fatal is
// false; adding others to an existing channel needs the permission to add subscribers.
import { badRequest, insufficientPermission } from '../../errors.js';
import type { Ctx, ParamsOf } from '../context.js';
import type { Stream, User } from '../../store/state.js';
import { hasContentAccess, hasMetadataAccess, isSubscribed, streamByName } from '../channels/access.js';
import { channelActivity } from '../channels/activity.js';
import { checkNewChannel, insertChannel, type CheckedChannel } from '../channels/create.js';
import { invalidFolder } from '../channels/folders.js';
import { checkChannelName } from '../channels/names.js';
import { checkCanSetTopicsPolicy } from '../channels/realm-permissions.js';
import { streamToDict } from '../channels/stream-dict.js';
import { requireNonGuest } from '../users/roles.js';
import { apiEmailOf } from '../users/email-visibility.js';
import { addSubscriptions } from '../channels/add-subscriptions.js';
import { canAddSubscribers, namesOthers, principalUsers } from './principals.js';
import { tellSubscribedUsers } from './subscribe-notices.js';
import { MAX_BULK_NEW_SUBSCRIPTION_MESSAGES } from '../server-info.js';
import { announceCreatedChannels } from '../channels/announce.js';

interface RequestedChannel {
  name: string;
  description?: string;
  color?: string;
}

/** The operation's parameters, typed from the description. */
type SubscribeParams = ParamsOf<'subscribe'>;

type UserMap = Record<string, string[]>;

const HEX_COLOR = /^#[0-9a-fA-F]{3,6}$/;

/** The requested channels, names stripped and checked, each name once (compared without case). */
function requestedChannels(items: RequestedChannel[], param: string): RequestedChannel[] {
  const seen = new Map<string, RequestedChannel>();
  for (const [i, item] of items.entries()) {
    // The real server validates each item as a model, hence the wording.
    if (item.color !== undefined && !HEX_COLOR.test(item.color)) {
      throw badRequest(`Invalid ${param}[${i}]: Value error, add.color is not a valid hex color code`);
    }
    const name = checkChannelName(item.name);
    if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), { ...item, name });
  }
  return [...seen.values()];
}

function checkRequested(ctx: Ctx, item: RequestedChannel, p: SubscribeParams): CheckedChannel {
  const { subscriptions: _s, principals: _p, authorization_errors_fatal: _a, ...settings } = p;
  // Subscribers are added below, with the requested colour; the announcement covers all new channels.
  return checkNewChannel(ctx, {
    ...settings,
    // Not a parameter below FL 392, where new channels follow the organization's rule.
    topics_policy: settings.topics_policy ?? 'inherit',
    name: item.name,
    description: item.description ?? '',
    subscribers: [],
    announce: false,
  });
}

/** Users who could not see the channel learn of it (stream/create) before their subscription/add. */
function introduceChannel(ctx: Ctx, stream: Stream, users: User[]): void {
  const newcomers = users.filter((u) => !hasMetadataAccess(ctx.store, u, stream)).map((u) => u.user_id);
  if (!newcomers.length) return;
  const dict = streamToDict(ctx.store, stream, channelActivity(ctx.store, ctx.clock.now()));
  ctx.events.publish(newcomers, { type: 'stream', op: 'create', streams: [dict] });
}

/** A subscription request every check passed for: what subscribe would do, nothing done yet. */
export interface CheckedSubscription {
  params: SubscribeParams;
  requested: RequestedChannel[];
  authorized: Stream[];
  unauthorized: Stream[];
  toCreate: CheckedChannel[];
  subscribers: User[];
}

/**
 * Every check of POST /users/me/subscriptions, without changing anything. `param` names the
 * list in errors: `subscriptions` here, `add` for PATCH /users/me/subscriptions.
 */
export function checkSubscribe(ctx: Ctx, p: SubscribeParams, param = 'subscriptions'): CheckedSubscription {
  const { store, actor } = ctx;
  requireNonGuest(actor);
  if (p.folder_id !== undefined && !store.channelFolders.get(p.folder_id)) throw invalidFolder();
  if (p.topics_policy !== undefined && p.topics_policy !== 'inherit') checkCanSetTopicsPolicy(store, actor);

  const requested = requestedChannels(p.subscriptions, param);
  const existing: Stream[] = [];
  const missing: RequestedChannel[] = [];
  for (const item of requested) {
    const stream = streamByName(store, item.name);
    if (stream) existing.push(stream);
    else missing.push(item);
  }
  // Archived channels take no new subscribers: the mock treats them as inaccessible.
  const unauthorized = existing.filter((s) => s.is_archived || !hasContentAccess(store, actor, s));
  if (unauthorized.length && p.authorization_errors_fatal)
    throw badRequest(`Unable to access channel (${unauthorized[0].name}).`);
  const authorized = existing.filter((s) => !unauthorized.includes(s));

  // Below feature level 163 API emails are as the organization's email_address_visibility gives them.
  const organization = !ctx.supports('email_visibility_per_user');
  const others = namesOthers(actor, p.principals, apiEmailOf(store.realm, actor, organization));
  if (others && authorized.some((s) => !canAddSubscribers(store, actor, s))) throw insufficientPermission();
  const subscribers = others ? principalUsers(store, p.principals!, organization) : [actor];
  const toCreate = missing.map((item) => checkRequested(ctx, item, p));
  return { params: p, requested, authorized, unauthorized, toCreate, subscribers };
}

/** Carries out a checked subscription request: creates, subscribes, notifies; answers as POST /users/me/subscriptions does. */
export function applySubscribe(ctx: Ctx, checked: CheckedSubscription): Record<string, unknown> {
  const { store } = ctx;
  const { params: p, requested, authorized, unauthorized, subscribers } = checked;
  const created = checked.toCreate.map((c) => insertChannel(ctx, c));
  const colors = new Map(requested.map((r) => [r.name.toLowerCase(), r.color]));
  const organization = !ctx.supports('email_visibility_per_user');
  const keyOf = (u: User) =>
    ctx.supports('subscribe_response_keyed_by_user_id') ? String(u.user_id) : apiEmailOf(store.realm, u, organization);
  const subscribed: UserMap = {};
  const already: UserMap = {};
  const newToExisting = new Map<User, string[]>();
  for (const stream of [...authorized, ...created]) {
    const fresh = subscribers.filter((u) => !isSubscribed(store, u.user_id, stream.stream_id));
    introduceChannel(ctx, stream, fresh);
    addSubscriptions(
      ctx,
      stream,
      fresh.map((u) => u.user_id),
      colors.get(stream.name.toLowerCase()),
    );
    for (const u of subscribers) {
      const map = fresh.includes(u) ? subscribed : already;
      (map[keyOf(u)] ??= []).push(stream.name);
      if (fresh.includes(u) && !created.includes(stream))
        newToExisting.set(u, [...(newToExisting.get(u) ?? []), stream.name]);
    }
  }

  const result: Record<string, unknown> = { subscribed, already_subscribed: already };
  // From FL 397 the caller may ask for no notices, and a request subscribing more users than
  // MAX_BULK_NEW_SUBSCRIPTION_MESSAGES sends none (new_subscription_messages_sent says which).
  if (!ctx.supports('bulk_subscription_notice_limit')) tellSubscribedUsers(ctx, newToExisting);
  else if (p.send_new_subscription_messages !== false) {
    const sent = Object.keys(subscribed).length <= MAX_BULK_NEW_SUBSCRIPTION_MESSAGES;
    if (sent) tellSubscribedUsers(ctx, newToExisting);
    result.new_subscription_messages_sent = sent;
  }
  if (p.announce) announceCreatedChannels(ctx, created);
  if (!p.authorization_errors_fatal) result.unauthorized = unauthorized.map((s) => s.name);
  return result;
}

export function subscribe(ctx: Ctx, p: SubscribeParams): Record<string, unknown> {
  return applySubscribe(ctx, checkSubscribe(ctx, p));
}
