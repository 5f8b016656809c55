// Shared by the client-endpoint tests: a queue registered through the API and its events, so
// that a test sees what a real client would receive.
import { expect } from 'vitest';
import type { Client } from '../helpers/server.js';

export interface Queue {
  id: string;
  /** Every event delivered so far (without waiting). */
  events(): Promise<Array<Record<string, any>>>;
}

export async function registerQueue(client: Client, eventTypes?: string[]): Promise<Queue> {
  const r = await client.post('/register', { fetch_event_types: [], ...(eventTypes ? { event_types: eventTypes } : {}) });
  expect(r.status).toBe(200);
  const id = r.body.queue_id as string;
  return {
    id,
    async events() {
      const res = await client.get('/events', { queue_id: id, last_event_id: -1, dont_block: true });
      expect(res.status).toBe(200);
      return res.body.events.filter((e: any) => e.type !== 'heartbeat');
    },
  };
}
