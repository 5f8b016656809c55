// Views of the real-time events operations, by operationId.
import type { ViewTable } from '../context.js';
import { pollEvents } from './poll.js';
import { hubOf, registerQueue, type RegisterInput } from './register.js';

export const views: ViewTable = {
  'register-queue': (ctx, params) => registerQueue(ctx, params as RegisterInput),

  'get-events': (ctx, params) =>
    pollEvents(ctx, hubOf(ctx), {
      queue_id: params.queue_id,
      last_event_id: params.last_event_id,
      dont_block: params.dont_block,
    }),

  'delete-queue': (ctx, params) => {
    const hub = hubOf(ctx);
    hub.delete(hub.access(ctx.actor.user_id, params.queue_id, ctx.clock.now()));
  },
};
