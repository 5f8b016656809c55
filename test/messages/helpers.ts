// Shared by the messaging tests: reading messages back through GET /messages/matches_narrow,
// event queues to see what clients are told, and quick access to fixture rows.
import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import type { EventSink } from '../../src/domain/context.js';

/** Sends as `who`, expects success, and gives the new message's ID. */
export async function sendOk(t: TestServer, who: string, params: Record<string, unknown>): Promise<number> {
  const r = await t.as(who).post('/messages', params);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id;
}

/** What matches_narrow says about one message, as `who` (undefined: no entry). */
export async function readBack(t: TestServer, who: string, id: number, narrow: unknown[] = []) {
  const r = await t.as(who).get('/messages/matches_narrow', { msg_ids: [id], narrow });
  expect(r.status).toBe(200);
  return r.body.messages[String(id)] as { match_content: string; match_subject: string } | undefined;
}

export async function registerQueue(t: TestServer, who: string, eventTypes: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const r = await t.as(who).post('/register', { event_types: eventTypes, fetch_event_types: [], ...extra });
  expect(r.status).toBe(200);
  return r.body.queue_id;
}

export async function eventsOf(t: TestServer, who: string, queueId: string): Promise<any[]> {
  const r = await t.as(who).get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  expect(r.status).toBe(200);
  return r.body.events;
}

export const stream = (t: TestServer, name: string) => t.server.world.store.streams.by('name', name.toLowerCase())!;

export const error = (code: string, msg: string, extra: Record<string, unknown> = {}) => ({ result: 'error', code, msg, ...extra });

/** An EventSink that records, per user, the event each of them would get (perQueue applied for queue 'q'). */
export function recordingSink() {
  const seen: Array<{ userId: number; event: Record<string, unknown> }> = [];
  const sink: EventSink = {
    publish(userIds, event, perQueue) {
      for (const userId of new Set(userIds)) seen.push({ userId, event: (perQueue ? perQueue('q', userId) : event) ?? event });
    },
  };
  return { sink, seen, of: (type: string) => seen.filter((s) => s.event.type === type) };
}
