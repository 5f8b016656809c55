// Views of the groups operations, by operationId.
import type { ViewTable } from '../context.js';

export const views: ViewTable = {};
