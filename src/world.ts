// One isolated world: a store and the event queues that watch it. The server has a default world
// and may hold more (sandboxes); every request is served by exactly one.
import { Store } from './store/store.js';
import type { State } from './store/state.js';
import { cloneState } from './store/fixture.js';
import { EventHub } from './domain/events/hub.js';

export class World {
  readonly store: Store;
  readonly events: EventHub;

  constructor(readonly name: string, private fixture: State) {
    this.store = new Store(cloneState(fixture));
    this.events = new EventHub();
  }

  /** Back to the fixture (or to a new one). */
  reset(fixture: State = this.fixture): void {
    this.fixture = fixture;
    this.store.load(cloneState(fixture));
  }

  close(): void {
    this.events.close();
  }
}
