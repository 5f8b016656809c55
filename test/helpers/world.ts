// A world for calling time-driven actions (deliveries) directly: a store, a sink for its events,
// and a clock stopped at a chosen second.
import { Clock } from '../../src/clock.js';
import type { EventSink, WorldCtx } from '../../src/domain/context.js';
import type { Store } from '../../src/store/store.js';

export function worldAt(store: Store, events: EventSink, seconds: number): WorldCtx {
  const clock = new Clock();
  clock.set(seconds * 1000);
  clock.freeze();
  return { store, events, clock };
}
