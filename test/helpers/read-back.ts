// Reading changes back through the API, as a client would see them.
import { expect } from 'vitest';
import type { Client, TestServer } from './server.js';

/** What GET /messages/matches_narrow says about one message, as `who` (undefined: no entry). */
export async function readBack(t: TestServer, who: string, id: number, narrow: unknown[] = []) {
  const r = await t.as(who).get('/messages/matches_narrow', { msg_ids: [id], narrow });
  expect(r.status).toBe(200);
  return r.body.messages[String(id)] as { match_content: string; match_subject: string } | undefined;
}

/** The message as `who` reads it through GET /messages/{id} (Markdown content), or undefined when refused. */
export async function readMessage(t: TestServer, who: string, id: number, extra: Record<string, unknown> = {}) {
  const r = await t.as(who).get(`/messages/${id}`, { apply_markdown: false, allow_empty_topic_name: true, ...extra });
  return r.status === 200 ? r.body.message : undefined;
}

/** The caller's subscription to the channel, as GET /users/me/subscriptions shows it (or undefined). */
export async function subscriptionOf(
  client: Client,
  streamId: number,
  params: Record<string, unknown> = {},
): Promise<any> {
  const res = await client.get('/users/me/subscriptions', params);
  expect(res.status).toBe(200);
  return res.body.subscriptions.find((s: any) => s.stream_id === streamId);
}
