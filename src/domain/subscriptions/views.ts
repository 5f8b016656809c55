// Views of the subscriptions operations, by operationId.
import type { ViewTable } from '../context.js';
import { listSubscriptions } from './list.js';
import { updateSubscriptionProperties, type PropertyChange } from './properties.js';
import { muteTopic, updateUserTopic, type MuteTopicParams, type UserTopicParams } from './user-topics.js';
import { subscribe, type SubscribeParams } from './subscribe.js';
import { unsubscribe, type UnsubscribeParams } from './unsubscribe.js';

export const views: ViewTable = {
  'get-subscriptions': (ctx, params) => listSubscriptions(ctx, params.include_subscribers ?? false),
  'update-subscription-setting': (ctx, params) =>
    updateSubscriptionProperties(ctx, [{ stream_id: params.stream_id, property: params.property, value: params.value }], false),
  'update-subscription-settings': (ctx, params) =>
    updateSubscriptionProperties(ctx, params.subscription_data as PropertyChange[], true),
  'update-user-topic': (ctx, params) => updateUserTopic(ctx, params as UserTopicParams),
  'mute-topic': (ctx, params) => muteTopic(ctx, params as MuteTopicParams),
  'subscribe': (ctx, params) => subscribe(ctx, params as SubscribeParams),
  'unsubscribe': (ctx, params) => unsubscribe(ctx, params as UnsubscribeParams),
};
