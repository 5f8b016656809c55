// What clients are told: an event queue registered through the API and the events it holds, and
// recorders of what the server publishes (for tests that look at the hub rather than a queue).
import { expect, vi } from 'vitest';
import type { TestServer } from './server.js';
import type { EventSink } from '../../src/domain/context.js';

/**
 * Registers an event queue as `who` and gives its ID. `eventTypes` left out: every type, as a
 * client that does not filter. `extra`: further /register parameters.
 */
export async function registerQueue(
  t: TestServer,
  who: string,
  eventTypes?: string[],
  extra: Record<string, unknown> = {},
): Promise<string> {
  const r = await t
    .as(who)
    .post('/register', { ...(eventTypes ? { event_types: eventTypes } : {}), fetch_event_types: [], ...extra });
  expect(r.status).toBe(200);
  return r.body.queue_id;
}

/** Every event the queue holds so far, without waiting (heartbeats left out). */
export async function eventsOf(t: TestServer, who: string, queueId: string): Promise<any[]> {
  const r = await t.as(who).get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  expect(r.status).toBe(200);
  return r.body.events.filter((e: { type: string }) => e.type !== 'heartbeat');
}

export interface Published {
  users: number[];
  event: Record<string, any>;
}

/** Records every event the server publishes from now on (a new call starts a new record). */
export function watchEvents(t: TestServer): Published[] {
  const seen: Published[] = [];
  const events = t.server.world.events;
  if (vi.isMockFunction(events.publish)) (events.publish as unknown as { mockRestore(): void }).mockRestore();
  const original = events.publish.bind(events);
  vi.spyOn(events, 'publish').mockImplementation((users, event, perQueue) => {
    seen.push({ users: [...users], event });
    original(users, event, perQueue);
  });
  return seen;
}

/** An EventSink that records, per user, the event each of them would get (perQueue applied for queue 'q'). */
export function recordingSink() {
  const seen: Array<{ userId: number; event: Record<string, unknown> }> = [];
  const sink: EventSink = {
    publish(userIds, event, perQueue) {
      for (const userId of new Set(userIds))
        seen.push({ userId, event: (perQueue ? perQueue('q', userId) : event) ?? event });
    },
  };
  return { sink, seen, of: (type: string) => seen.filter((s) => s.event.type === type) };
}
