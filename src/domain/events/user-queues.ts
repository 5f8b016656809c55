// One user's event queues, indexed by the event types they asked for. A client that registers
// for a few types (most bots and bench loops: `["message"]`) must cost nothing when events of
// other types are published: scanning every queue of the user to ask each whether it wants the
// type cost ~50 µs per thousand queues, per event (POST /messages/flags/narrow spent almost all
// its time there once a user had thousands of message-only queues).
// The queues are also kept in the order a full user's next registration collects them (polled
// longest ago first, then registration order), so that a client registering in a loop past
// MAX_QUEUES_PER_USER does not scan every queue of the user each time (about a tenth of
// POST /register's CPU in the bench, whose user holds a thousand queues).
import type { EventQueue } from './queue.js';

/** A queue's place in the collection order: its last poll time and registration number when placed. */
interface AgeEntry {
  queue: EventQueue;
  at: number;
  seq: number;
}

export class UserQueues {
  /** Every queue of the user, in registration order. */
  readonly all = new Set<EventQueue>();
  /** Queues registered without event_types: they take every type. */
  private readonly anyType = new Set<EventQueue>();
  private readonly byType = new Map<string, Set<EventQueue>>();
  /** Each queue's current entry in byAge; an entry of byAge that is not its queue's current one is stale. */
  private readonly entryOf = new Map<EventQueue, AgeEntry>();
  /** Entries by (at, seq) from `head` on when `sorted` (entries are appended; a poll appends a new one). */
  private byAge: AgeEntry[] = [];
  private head = 0;
  private sorted = true;
  private registered = 0;

  add(queue: EventQueue): void {
    this.all.add(queue);
    this.place({ queue, at: queue.lastPolled, seq: this.registered++ });
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
    this.entryOf.delete(queue);
    this.anyType.delete(queue);
    for (const type of queue.options.eventTypes ?? []) {
      const set = this.byType.get(type);
      if (set?.delete(queue) && set.size === 0) this.byType.delete(type);
    }
  }

  /** The queue was polled (its lastPolled changed): it moves in the collection order. */
  touched(queue: EventQueue): void {
    const entry = this.entryOf.get(queue);
    if (entry) this.place({ queue, at: queue.lastPolled, seq: entry.seq });
  }

  /**
   * The queue a full user's registration collects: among those without a long-poll waiting, the
   * one polled longest ago, the first registered of those polled at that time. Null if none.
   */
  oldestIdle(): EventQueue | null {
    if (!this.sorted) {
      this.byAge = [...this.entryOf.values()].sort((a, b) => a.at - b.at || a.seq - b.seq);
      this.head = 0;
      this.sorted = true;
    }
    while (this.head < this.byAge.length && !this.current(this.byAge[this.head])) this.head++;
    for (let i = this.head; i < this.byAge.length; i++) {
      const entry = this.byAge[i];
      if (this.current(entry) && !entry.queue.polling) return entry.queue;
    }
    return null;
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

  private current(entry: AgeEntry): boolean {
    return this.entryOf.get(entry.queue) === entry;
  }

  /** Appends the entry; an entry out of order leaves the list to be sorted at the next collection. */
  private place(entry: AgeEntry): void {
    this.entryOf.set(entry.queue, entry);
    const last = this.byAge[this.byAge.length - 1];
    if (last && (entry.at < last.at || (entry.at === last.at && entry.seq < last.seq))) this.sorted = false;
    this.byAge.push(entry);
    // Stale entries (deleted or polled since) are bounded by the live ones: drop them, in order.
    if (this.byAge.length > 2 * this.entryOf.size + 64) {
      this.byAge = this.byAge.slice(this.head).filter((e) => this.current(e));
      this.head = 0;
    }
  }
}
