// One user's event queues, indexed by the event types they asked for. A client that registers
// for a few types (most bots and bench loops: `["message"]`) must cost nothing when events of
// other types are published: scanning every queue of the user to ask each whether it wants the
// type cost ~50 µs per thousand queues, per event (POST /messages/flags/narrow spent almost all
// its time there once a user had thousands of message-only queues).
import type { EventQueue } from './queue.js';

export class UserQueues {
  /** Every queue of the user, in registration order. */
  readonly all = new Set<EventQueue>();
  /** Queues registered without event_types: they take every type. */
  private readonly anyType = new Set<EventQueue>();
  private readonly byType = new Map<string, Set<EventQueue>>();

  add(queue: EventQueue): void {
    this.all.add(queue);
    const types = queue.options.eventTypes;
    if (types === null) {
      this.anyType.add(queue);
      return;
    }
    for (const type of types) {
      let set = this.byType.get(type);
      if (!set) this.byType.set(type, (set = new Set()));
      set.add(queue);
    }
  }

  delete(queue: EventQueue): void {
    this.all.delete(queue);
    this.anyType.delete(queue);
    for (const type of queue.options.eventTypes ?? []) {
      const set = this.byType.get(type);
      if (set?.delete(queue) && set.size === 0) this.byType.delete(type);
    }
  }

  get size(): number {
    return this.all.size;
  }

  /** The queues that take events of this type (heartbeats go to every queue: see wantsType). */
  *wanting(type: unknown): Iterable<EventQueue> {
    if (type === 'heartbeat') {
      yield* this.all;
      return;
    }
    yield* this.anyType;
    if (typeof type === 'string') yield* this.byType.get(type) ?? [];
  }
}
