// Views of the bot operations, by operationId.
import type { ViewTable } from '../context.js';
import { getBotStorage, removeBotStorage, updateBotStorage } from './storage.js';

export const views: ViewTable = {
  'get-bot-storage': (ctx, p) => ({ storage: getBotStorage(ctx, ctx.actor, { keys: p.keys }) }),
  'update-bot-storage': (ctx, p) => updateBotStorage(ctx, { storage: p.storage }),
  'remove-bot-storage': (ctx, p) => removeBotStorage(ctx, ctx.actor, { keys: p.keys }),
};
