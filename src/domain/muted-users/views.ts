// Views of the muted user operations, by operationId.
import type { ViewTable } from '../context.js';
import { muteUser, unmuteUser } from './mute.js';

export const views: ViewTable = {
  'mute-user': (ctx, p) => muteUser(ctx, ctx.actor, { userId: p.muted_user_id }),
  'unmute-user': (ctx, p) => unmuteUser(ctx, ctx.actor, { userId: p.muted_user_id }),
};
