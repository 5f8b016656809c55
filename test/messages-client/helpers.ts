// Shared by the client-endpoint message tests: sending as a user, reading back through
// GET /messages/{id}, and event queues.
import type { TestServer } from '../helpers/server.js';
import { sendOk } from '../messages/helpers.js';

export { error, eventsOf, registerQueue, stream } from '../messages/helpers.js';

export const send = sendOk;

export const sendToChannel = (t: TestServer, who: string, channel: string, topic: string, content: string) =>
  send(t, who, { type: 'stream', to: channel, topic, content });

/** The message as `who` reads it (Markdown content), or the failed response's body. */
export async function readMessage(t: TestServer, who: string, id: number, extra: Record<string, unknown> = {}) {
  const r = await t.as(who).get(`/messages/${id}`, { apply_markdown: false, allow_empty_topic_name: true, ...extra });
  return r.status === 200 ? r.body.message : undefined;
}

export const ids = (messages: Array<{ id: number }>) => messages.map((m) => m.id);
