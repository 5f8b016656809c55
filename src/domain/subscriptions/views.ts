// Views of the subscriptions operations, by operationId.
import type { ViewTable } from '../context.js';

export const views: ViewTable = {};
