// Views of the events operations, by operationId.
import type { ViewTable } from '../context.js';

export const views: ViewTable = {};
