// An imported state may hold a channel message whose channel the state lacks: the `channels`
// narrow then leaves that message out instead of failing the whole request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function control(method: string, route: string, body?: unknown) {
  const res = await fetch(`${t.base}/__mock${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('channels:public over a message of a missing channel', () => {
  it('answers the other messages, without the orphan', async () => {
    const state = (await control('GET', '/state')).body.state;
    const orphan = state.messages.find((m: any) => m.type === 'stream');
    orphan.stream_id = 999_999;
    const imported = await control('PUT', '/state', { state });
    // The import takes it (rows are checked one by one, not against each other).
    expect(imported.status).toBe(200);
    const r = await t.as('hamlet').get('/messages', {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'channels', operand: 'public' }]),
    });
    expect(r.status).toBe(200);
    const ids = r.body.messages.map((m: any) => m.id);
    expect(ids).not.toContain(orphan.id);
    expect(ids.length).toBeGreaterThan(0);
  });
});
