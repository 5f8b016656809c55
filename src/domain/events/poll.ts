// GET /events: the long poll. Events newer than last_event_id come back at once (and the older
// ones are acknowledged, i.e. dropped); otherwise the request waits for the next event, and when
// the heartbeat wait (the real server's 45-55 s, or --longpoll-timeout) passes first the queue
// gets a heartbeat event, which is returned.
import type { Ctx } from '../context.js';
import { badEventQueueId, type EventHub } from './hub.js';
import type { Event } from './queue.js';
import { heartbeatDelayMs } from '../server-info.js';

export interface PollInput {
  queue_id: string;
  last_event_id?: number;
  dont_block: boolean;
}

export async function pollEvents(
  ctx: Ctx,
  hub: EventHub,
  input: PollInput,
): Promise<{ events: Event[]; queue_id: string }> {
  const queue = hub.access(ctx.actor.user_id, input.queue_id, ctx.clock.now());
  hub.touch(queue, ctx.clock.now());
  if (input.last_event_id !== undefined) queue.prune(input.last_event_id);
  if (queue.empty && !input.dont_block) {
    const outcome = await queue.wait(heartbeatDelayMs(ctx.server));
    // Deleted, expired or reset away while we waited: say so now. When the server is closing,
    // end the poll cleanly with what there is.
    if (outcome === 'gone' && !hub.closed) throw badEventQueueId(input.queue_id);
    if (outcome === 'timeout') queue.push({ type: 'heartbeat' });
    hub.touch(queue, ctx.clock.now());
  }
  return { events: queue.contents(), queue_id: queue.id };
}
