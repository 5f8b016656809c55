// The journal is ordered by request id, not by when each request was answered: a long-poll that
// arrives first and is answered last must not hide the requests made while it waited, neither
// from GET /__mock/journal?since_id= nor from the live stream's replay after Last-Event-ID.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ longpollTimeoutSeconds: 30 });
});
afterAll(async () => {
  await t.close();
});

interface Entry {
  id: number;
  operation: string | null;
}
const journal = async (query: string): Promise<Entry[]> =>
  (await (await fetch(`${t.base}/__mock/journal?${query}`)).json()).entries;

/** Polls the queue, makes two requests while the poll waits, then wakes the poll with a message. */
async function pollAnsweredLast(): Promise<number> {
  const hamlet = t.as('hamlet');
  const { body: queue } = await hamlet.post('/register', { event_types: ['message'] });
  const poll = hamlet.get('/events', { queue_id: queue.queue_id, last_event_id: -1 });
  // The poll must have arrived (and taken its id) before the next requests.
  await new Promise((resolve) => setTimeout(resolve, 150));
  await hamlet.get('/users/me');
  await t.as('iago').post('/messages', { type: 'stream', to: 'Denmark', topic: 'journal order', content: 'wake up' });
  expect((await poll).status).toBe(200);
  const [answered] = await journal('operation=get-events&limit=1');
  return answered.id;
}

describe('a long-poll answered after later requests', () => {
  it('does not hide them from since_id', async () => {
    const pollId = await pollAnsweredLast();
    const after = await journal(`since_id=${pollId}`);
    expect(after.map((e) => e.operation)).toEqual(['send-message', 'get-own-user']);
    const fromBefore = await journal(`since_id=${pollId - 1}`);
    expect(fromBefore.map((e) => e.operation)).toEqual(['send-message', 'get-own-user', 'get-events']);
    expect(fromBefore.map((e) => e.id)).toEqual([pollId + 2, pollId + 1, pollId]);
  });

  it('does not hide them from the live stream replay', async () => {
    const pollId = await pollAnsweredLast();
    const abort = new AbortController();
    const res = await fetch(`${t.base}/__mock/journal/stream`, {
      headers: { 'Last-Event-ID': String(pollId) },
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('event: ready')) text += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    const replayed = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(replayed).toEqual([pollId + 1, pollId + 2]);
  });
});
