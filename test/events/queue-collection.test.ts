// A user at MAX_QUEUES_PER_USER queues: each new registration collects the queue polled longest
// ago (the first registered among those polled at that time), never one with a long-poll waiting.
// The hub keeps the queues in that order (src/domain/events/user-queues.ts) instead of scanning
// them all at each registration; this compares it with the plain scan over random registrations,
// polls (the mock clock moving both ways), waits and deletions.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventHub, MAX_QUEUES_PER_USER } from '../../src/domain/events/hub.js';
import { EventQueue } from '../../src/domain/events/queue.js';
import { queueOptions } from '../helpers/queue-options.js';

const options = (now: number) => queueOptions({ eventTypes: new Set(['message']), idleTimeoutSecs: 10 ** 9, now });

/** The rule as written: the first, in registration order, of the idle queues polled longest ago. */
function plainOldest(queues: EventQueue[]): EventQueue | null {
  let oldest: EventQueue | null = null;
  for (const q of queues) if (!q.polling && (!oldest || q.lastPolled < oldest.lastPolled)) oldest = q;
  return oldest;
}

/** A small deterministic generator (mulberry32), so that a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

afterEach(() => vi.restoreAllMocks());

describe("collecting a full user's queues", () => {
  it('collects the queue the plain scan names, through polls, waits, deletions and a clock moving back', () => {
    for (const seed of [1, 2, 3]) {
      const rnd = random(seed);
      const hub = new EventHub();
      let now = 1000;
      const clockStep = () => (now += Math.floor(rnd() * 5) - (rnd() < 0.05 ? 30 : 1));
      for (let i = 0; i < MAX_QUEUES_PER_USER; i++) {
        if (rnd() < 0.3) clockStep();
        hub.register(options(now));
      }
      for (let step = 0; step < 2000; step++) {
        const queues = hub.queuesOf(4);
        const pick = () => queues[Math.floor(rnd() * queues.length)];
        const r = rnd();
        if (r < 0.35) {
          clockStep();
          hub.touch(pick(), now);
        } else if (r < 0.4) {
          void pick().wait(10 ** 9);
        } else if (r < 0.45) {
          hub.delete(pick());
        } else {
          clockStep();
          const expected = queues.length >= MAX_QUEUES_PER_USER ? plainOldest(queues) : null;
          const added = hub.register(options(now));
          const after = new Set(hub.queuesOf(4));
          const lost = queues.filter((q) => !after.has(q)).map((q) => q.id);
          if (lost.length !== (expected ? 1 : 0) || (expected && lost[0] !== expected.id) || !after.has(added))
            expect({ seed, step, lost }).toEqual({ seed, step, lost: expected ? [expected.id] : [] });
        }
      }
      hub.clear(); // ends the waits (and their timers)
    }
  });

  it('does not look at every queue of the user at each registration', () => {
    const hub = new EventHub();
    for (let i = 0; i < MAX_QUEUES_PER_USER; i++) hub.register(options(1000));
    const polling = vi.spyOn(EventQueue.prototype, 'polling', 'get');
    for (let i = 0; i < 100; i++) hub.register(options(1000 + i));
    // A scan asks each of the thousand queues at every registration.
    expect(polling.mock.calls.length).toBeLessThan(1000);
    expect(hub.queuesOf(4)).toHaveLength(MAX_QUEUES_PER_USER);
  });
});
