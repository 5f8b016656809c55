// The options of an event queue made directly on a hub (tests below the HTTP layer): Hamlet's
// plain queue for every event type, with whatever a test changes.
import type { QueueOptions } from '../../src/domain/events/queue.js';

export function queueOptions(changes: Partial<QueueOptions> = {}): QueueOptions {
  return {
    userId: 4,
    eventTypes: null,
    messageFilter: null,
    allPublicStreams: false,
    capabilities: {},
    emptyTopicDisplayName: 'general chat',
    applyMarkdown: true,
    slimPresence: false,
    clientGravatar: false,
    idleTimeoutSecs: 600,
    now: 1000,
    ...changes,
  };
}
