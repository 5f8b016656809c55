// Helpers shared by the channel and subscription tests: read a subscription back through
// GET /users/me/subscriptions, and watch the events the server publishes.
import { expect, vi } from 'vitest';
import type { Client, TestServer } from '../helpers/server.js';

/** The caller's subscription to the channel, as GET /users/me/subscriptions shows it (or undefined). */
export async function subscriptionOf(client: Client, streamId: number, params: Record<string, unknown> = {}): Promise<any> {
  const res = await client.get('/users/me/subscriptions', params);
  expect(res.status).toBe(200);
  return res.body.subscriptions.find((s: any) => s.stream_id === streamId);
}

export interface Published {
  users: number[];
  event: Record<string, any>;
}

/** Records every event published from now on (a new call starts a new record). */
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

export const streamId = (t: TestServer, name: string) => t.server.world.store.streams.by('name', name.toLowerCase())!.stream_id;

export const folderId = (t: TestServer, name: string) => t.server.world.store.channelFolders.find((f) => f.name === name)!.id;

export const groupId = (t: TestServer, name: string) => t.server.world.store.userGroups.find((g) => g.name === name)!.id;

/** Expects an error answer with this status, code and message. */
export function expectError(res: { status: number; body: any }, status: number, code: string, msg: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ result: 'error', code, msg });
}
