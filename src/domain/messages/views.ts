// Views of the messages operations, by operationId.
import type { ViewTable } from '../context.js';

export const views: ViewTable = {};
