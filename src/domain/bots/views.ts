// Views of the bot operations, by operationId.
import type { ViewTable } from '../context.js';
import { createBot } from './create.js';
import { botToManage, listBots, regenerateBotApiKey, regenerateOwnApiKey } from './manage.js';
import { getBotStorage, removeBotStorage, updateBotStorage } from './storage.js';
import { updateBot } from './update.js';

export const views: ViewTable = {
  'get-bot-storage': (ctx, p) => ({ storage: getBotStorage(ctx, ctx.actor, { keys: p.keys }) }),
  'update-bot-storage': (ctx, p) => updateBotStorage(ctx, { storage: p.storage }),
  'remove-bot-storage': (ctx, p) => removeBotStorage(ctx, ctx.actor, { keys: p.keys }),
  'get-bots': (ctx) => listBots(ctx, ctx.actor),
  'create-bot': (ctx, p) => createBot(ctx, ctx.actor, p),
  'update-bot': (ctx, p) => updateBot(ctx, ctx.actor, p.bot_id, p),
  'regenerate-bot-api-key': (ctx, p) => regenerateBotApiKey(ctx, ctx.actor, p.bot_id),
  'get-bot-api-key': (ctx, p) => ({ api_key: botToManage(ctx, ctx.actor, p.bot_id).api_key }),
  'regenerate-api-key': (ctx) => regenerateOwnApiKey(ctx, ctx.actor),
};
