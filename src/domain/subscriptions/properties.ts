// Personal subscription settings (PATCH /users/me/subscriptions/{id} and the bulk
// POST /users/me/subscriptions/properties). Every change is checked before any is applied, as the
// real server parses the whole list first; then they are applied in order, stopping at the first
// channel error. is_muted and in_home_view are one setting seen from two sides: changing either
// sends two subscription/update events, in_home_view first.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { Subscription } from '../../store/state.js';
import { subscriptionKey } from '../../store/store.js';
import { accessStreamContentById } from '../channels/access.js';

export interface PropertyChange {
  stream_id: number;
  property: string;
  value: unknown;
}

const BOOLEAN_PROPERTIES = new Set([
  'is_muted',
  'in_home_view',
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
]);

const HEX_COLOR = /^#[0-9a-fA-F]{3,6}$/;

/** `index` is the change's place in subscription_data (bulk form), which the colour error names. */
function checkChange(change: PropertyChange, index?: number): void {
  const { property, value } = change;
  if (property === 'color') {
    if (typeof value !== 'string') throw badRequest('color is not a string');
    if (!HEX_COLOR.test(value)) {
      const msg = 'color is not a valid hex color code';
      throw badRequest(index === undefined ? msg : `Invalid subscription_data[${index}]: Value error, ${msg}`);
    }
  } else if (BOOLEAN_PROPERTIES.has(property)) {
    if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
  } else {
    throw badRequest(`Unknown subscription property: ${property}`);
  }
}

function publishProperty(ctx: Ctx, sub: Subscription, property: string, value: unknown): void {
  ctx.events.publish([sub.user_id], { type: 'subscription', op: 'update', property, value, stream_id: sub.stream_id });
}

function applyChange(ctx: Ctx, sub: Subscription, property: string, value: unknown): void {
  if (property === 'is_muted' || property === 'in_home_view') {
    const muted = property === 'is_muted' ? (value as boolean) : !(value as boolean);
    ctx.store.subscriptions.update(sub, { is_muted: muted });
    // Servers before FL 139 sent one event, for the property the client named.
    if (!ctx.supports('subscription_mute_two_events')) {
      publishProperty(ctx, sub, property, value);
      return;
    }
    publishProperty(ctx, sub, 'in_home_view', !muted);
    publishProperty(ctx, sub, 'is_muted', muted);
    return;
  }
  ctx.store.subscriptions.update(sub, { [property]: value } as Partial<Subscription>);
  publishProperty(ctx, sub, property, value);
}

export function updateSubscriptionProperties(ctx: Ctx, changes: PropertyChange[], bulk: boolean): void {
  changes.forEach((change, i) => checkChange(change, bulk ? i : undefined));
  const { store, actor } = ctx;
  for (const change of changes) {
    const stream = accessStreamContentById(store, actor, change.stream_id);
    const sub = store.subscriptions.get(subscriptionKey(actor.user_id, stream.stream_id));
    if (!sub) throw badRequest(`Not subscribed to channel ID ${change.stream_id}`);
    applyChange(ctx, sub, change.property, change.value);
  }
}
