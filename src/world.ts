// One isolated world: a store and the event queues that watch it. The server has a default world
// and may hold more (sandboxes); every request is served by exactly one.
import { Store } from './store/store.js';
import type { State } from './store/state.js';
import { cloneState } from './store/fixture.js';
import { EventHub } from './domain/events/hub.js';
import type { Clock } from './control/clock.js';

export class World {
  readonly store: Store;
  readonly events: EventHub;
  private readonly stopClock: () => void;

  constructor(readonly name: string, private fixture: State, readonly clock: Clock) {
    this.store = new Store(cloneState(fixture));
    this.events = new EventHub();
    // Time-driven work (scheduled messages, reminders, idle queues) runs when the clock moves.
    this.stopClock = clock.onChange(() => this.tick());
  }

  /** Does whatever has become due at the clock's current time. */
  tick(): void {
    // Filled in by the event-queue and delivery work.
  }

  /** Back to the fixture (or to a new one). */
  reset(fixture: State = this.fixture): void {
    this.fixture = fixture;
    this.store.load(cloneState(fixture));
  }

  close(): void {
    this.stopClock();
    this.events.close();
  }
}
