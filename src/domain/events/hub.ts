// Event queues per sandbox. (The contract core only needs publish(); queues, long polling and
// the event shapes arrive with the event-queue work.)
import type { EventSink } from '../context.js';

export class EventHub implements EventSink {
  publish(_userIds: Iterable<number>, _event: Record<string, unknown>): void {
    // No queues yet: events are dropped.
  }

  close(): void {}
}
