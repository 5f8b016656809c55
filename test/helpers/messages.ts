// Sending messages as a fixture user, for tests whose subject is what happens next.
import { expect } from 'vitest';
import type { TestServer } from './server.js';

/** Sends as `who` through POST /messages (with extra `headers`), expects success, and gives the new message's ID. */
export async function sendMessage(
  t: TestServer,
  who: string,
  params: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<number> {
  const r = await t.as(who, headers).post('/messages', params);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id;
}

/** sendMessage to a channel topic. */
export const sendToChannel = (t: TestServer, who: string, channel: string, topic: string, content: string) =>
  sendMessage(t, who, { type: 'stream', to: channel, topic, content });

export const ids = (messages: Array<{ id: number }>) => messages.map((m) => m.id);
