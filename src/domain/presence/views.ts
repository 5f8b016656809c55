// Views of the presence operations, by operationId.
import type { ViewTable } from '../context.js';
import { requireHuman } from '../users/roles.js';
import { realmPresence } from './format.js';
import { reportPresence } from './report.js';
import { userPresence } from './user-presence.js';

export const views: ViewTable = {
  'update-presence': (ctx, p) => {
    requireHuman(ctx.actor);
    reportPresence(ctx, ctx.actor, { status: p.status });
    if (p.ping_only) return {};
    return realmPresence(ctx.store, {
      // Passing last_update_id is asking for the modern form.
      slim: p.slim_presence || p.last_update_id !== undefined,
      lastUpdateId: p.last_update_id,
      historyLimitDays: p.history_limit_days,
      nowMs: ctx.clock.nowMs(),
      organization: !ctx.supports('email_visibility_per_user'),
    });
  },
  'get-user-presence': (ctx, p) => userPresence(ctx, p.user_id_or_email),
  'get-presence': (ctx) => {
    const { presences, server_timestamp } = realmPresence(ctx.store, {
      slim: false,
      nowMs: ctx.clock.nowMs(),
      organization: !ctx.supports('email_visibility_per_user'),
    });
    return { presences, server_timestamp };
  },
};
