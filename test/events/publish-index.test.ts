// Publishing visits only the queues that asked for the event's type (src/domain/events/user-queues.ts):
// a user with thousands of message-only queues made every other event (e.g. the
// update_message_flags of POST /messages/flags/narrow) cost a scan of all of them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../../src/domain/events/hub.js';
import { EventQueue } from '../../src/domain/events/queue.js';
import { queueOptions } from '../helpers/queue-options.js';

const options = (eventTypes: string[] | null) => queueOptions({ eventTypes: eventTypes && new Set(eventTypes) });
const flagsEvent = {
  type: 'update_message_flags',
  op: 'add',
  operation: 'add',
  flag: 'read',
  messages: [1],
  all: false,
};
const types = (q: EventQueue) => q.contents().map((e) => e.type);

afterEach(() => vi.restoreAllMocks());

describe('publishing to the queues of a user', () => {
  it('does not look at queues that did not ask for the type', () => {
    const hub = new EventHub();
    for (let i = 0; i < 2000; i++) hub.register(options(['message']));
    const every = hub.register(options(null));
    const spy = vi.spyOn(EventQueue.prototype, 'wantsType');
    hub.publish([4], flagsEvent);
    // Only the queue that takes every type is asked (a scan asked all 2,001).
    expect(spy.mock.calls.length).toBeLessThan(10);
    expect(types(every)).toEqual(['update_message_flags']);
  });

  it('delivers each type to the queues that want it, heartbeats to all, and forgets deleted queues', () => {
    const hub = new EventHub();
    const messages = hub.register(options(['message']));
    const flags = hub.register(options(['update_message_flags', 'message']));
    const every = hub.register(options(null));
    hub.publish([4], flagsEvent);
    hub.publish([4], { type: 'heartbeat' });
    expect(types(messages)).toEqual(['heartbeat']);
    expect(types(flags)).toEqual(['update_message_flags', 'heartbeat']);
    expect(types(every)).toEqual(['update_message_flags', 'heartbeat']);
    hub.delete(flags);
    hub.publish([4], flagsEvent);
    expect(types(flags)).toEqual(['update_message_flags', 'heartbeat']);
    expect(types(every)).toEqual(['update_message_flags', 'heartbeat', 'update_message_flags']);
    expect(hub.queuesOf(4)).toEqual([messages, every]);
    // Another user's queues are untouched.
    hub.publish([5], flagsEvent);
    expect(types(every)).toHaveLength(3);
  });
});
