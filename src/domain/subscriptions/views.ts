// Views of the subscriptions operations, by operationId.
import type { ViewTable } from '../context.js';
import { listSubscriptions } from './list.js';
import { updateSubscriptionProperties, type PropertyChange } from './properties.js';
import { subscribe } from './subscribe.js';
import { subscribeAndUnsubscribe } from './subscribe-and-unsubscribe.js';
import { unsubscribe } from './unsubscribe.js';
import { subscriptionStatus } from './subscription-status.js';

export const views: ViewTable = {
  'get-subscriptions': (ctx, params) => listSubscriptions(ctx, params.include_subscribers ?? false),
  'update-subscription-setting': (ctx, params) =>
    updateSubscriptionProperties(
      ctx,
      [{ stream_id: params.stream_id, property: params.property, value: params.value }],
      false,
    ),
  'update-subscription-settings': (ctx, params) =>
    updateSubscriptionProperties(ctx, params.subscription_data as PropertyChange[], true),
  subscribe: (ctx, params) => subscribe(ctx, params),
  unsubscribe: (ctx, params) => unsubscribe(ctx, params),
  'update-subscriptions': (ctx, params) => subscribeAndUnsubscribe(ctx, params),
  'get-subscription-status': (ctx, params) => subscriptionStatus(ctx, ctx.actor, params),
};
