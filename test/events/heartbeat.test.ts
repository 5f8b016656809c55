// The long-poll heartbeat as the real server times it: a GET /events with nothing to return is
// answered with a heartbeat after 45 s plus a random 0-10 whole seconds, never at the 90 s that
// register recommends clients as their own request timeout. The server's timers are faked (it
// runs in this process); the requests still go through HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Starts a poll on a fresh queue under fake timers; says whether it has been answered. */
async function waitingPoll() {
  const hamlet = t.as('hamlet');
  const { body: queue } = await hamlet.post('/register', { event_types: ['message'], fetch_event_types: ['realm'] });
  expect(queue.event_queue_longpoll_timeout_seconds).toBe(90);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let answer: any = null;
  const poll = hamlet.get('/events', { queue_id: queue.queue_id, last_event_id: -1 }).then((r) => {
    answer = r;
  });
  // The request has reached the server once its wait has set the (fake) heartbeat timer.
  await vi.waitFor(() => expect(vi.getTimerCount()).toBeGreaterThan(0));
  return { answered: () => answer, poll };
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('the long-poll heartbeat', () => {
  it('comes at 45 s when the draw is lowest', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { answered, poll } = await waitingPoll();
    await vi.advanceTimersByTimeAsync(44_900);
    await settle();
    expect(answered()).toBeNull();
    await vi.advanceTimersByTimeAsync(200);
    await poll;
    expect(answered().body).toMatchObject({ result: 'success', events: [{ type: 'heartbeat' }] });
  });

  it('comes at 55 s when the draw is highest, well before the 90 s client timeout', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.9999);
    const { answered, poll } = await waitingPoll();
    await vi.advanceTimersByTimeAsync(54_900);
    await settle();
    expect(answered()).toBeNull();
    await vi.advanceTimersByTimeAsync(200);
    await poll;
    expect(answered().body.events).toEqual([{ type: 'heartbeat', id: expect.any(Number) }]);
  });
});
