// A queue keeps its own copy of each event, with the queue's next ID after the event's fields
// (queue.ts, push): the published event is left as it was, and an own "__proto__" key (JSON
// parsed from a client) stays a plain field of the copy, never its prototype.
import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../src/domain/events/queue.js';
import { queueOptions } from '../helpers/queue-options.js';

describe('an event put in a queue', () => {
  it('is a copy with the queue ID last, the published event unchanged', () => {
    const queue = new EventQueue(queueOptions());
    const event = { type: 'invites_changed' };
    queue.push(event);
    queue.push(event);
    expect(queue.contents()).toEqual([
      { type: 'invites_changed', id: 0 },
      { type: 'invites_changed', id: 1 },
    ]);
    expect(Object.keys(queue.contents()[1])).toEqual(['type', 'id']);
    expect(event).toEqual({ type: 'invites_changed' });
  });

  it('copies an own "__proto__" key as a field', () => {
    const queue = new EventQueue(queueOptions());
    queue.push(JSON.parse('{"type":"custom","__proto__":{"polluted":true}}'));
    const [copy] = queue.contents();
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
