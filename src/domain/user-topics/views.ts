// Views of the topic visibility operations, by operationId.
import type { ViewTable } from '../context.js';
import { muteTopic, updateUserTopic } from './user-topics.js';

export const views: ViewTable = {
  'update-user-topic': (ctx, params) => updateUserTopic(ctx, params),
  'mute-topic': (ctx, params) => muteTopic(ctx, params),
};
