// One client's event queue: the events it has not acknowledged yet, what it asked to receive, and
// the long-polls waiting on it. Event IDs start at 0 and grow by one per queue.
import type { EventShaper } from './event-shape.js';
import { randomUUID } from 'node:crypto';

export type Event = Record<string, unknown>;

/** How a wait ended: an event arrived, the long-poll timed out, or the queue went away. */
export type WaitOutcome = 'event' | 'timeout' | 'gone';

export interface QueueOptions {
  userId: number;
  /** Event types the queue receives; null for every type. */
  eventTypes: ReadonlySet<string> | null;
  /** Message events must pass it (register's narrow); null when no narrow was given. */
  messageFilter: ((event: Event) => boolean) | null;
  /** Also receives message events of every public channel, subscribed or not. */
  allPublicStreams: boolean;
  /** client_capabilities, e.g. empty_topic_name. */
  capabilities: Readonly<Record<string, boolean>>;
  /** The empty topic's display name, shown to clients without the empty_topic_name capability. */
  emptyTopicDisplayName: string;
  applyMarkdown: boolean;
  /** Presence keyed by user ID: presence events without the email. */
  slimPresence: boolean;
  clientGravatar: boolean;
  /** Mock-clock seconds without a poll after which the queue is garbage-collected. */
  idleTimeoutSecs: number;
  /** Shapes each event to the level the queue was registered at (null or absent: sent as published). */
  shape?: EventShaper | null;
  /** The form a field takes at the queue's level, for events whose payload changed form (absent: the newest). */
  variantOf?: (schema: string, field: string) => string | undefined;
  /** Whether the server behaved the current way at the queue's level (openapi/behaviours.yaml; absent: it did). */
  supports?: (behaviour: string) => boolean;
  /** Mock-clock time of creation, UNIX seconds. */
  now: number;
}

export class EventQueue {
  readonly id = randomUUID();
  readonly userId: number;
  readonly options: QueueOptions;
  private events: Event[] = [];
  private nextEventId = 0;
  /** Mock-clock time of the last registration or poll. */
  private lastActivity: number;
  /** The long-polls waiting; made by the first (most queues of a loop that registers never wait). */
  private waiters: Set<(outcome: WaitOutcome) => void> | null = null;

  constructor(options: QueueOptions) {
    this.options = options;
    this.userId = options.userId;
    this.lastActivity = options.now;
  }

  /** Whether the queue asked for events of this type (heartbeats are always delivered). */
  wantsType(type: unknown): boolean {
    const types = this.options.eventTypes;
    return types === null || type === 'heartbeat' || (typeof type === 'string' && types.has(type));
  }

  /** The type check plus the narrow, which only message events must pass. */
  accepts(event: Event): boolean {
    if (!this.wantsType(event.type)) return false;
    // A client that asked for user_topic too gets the legacy muted_topics only from older servers.
    if (event.type === 'muted_topics' && this.options.eventTypes?.has('user_topic')) return false;
    if (event.type === 'message' && this.options.messageFilter) return this.options.messageFilter(event);
    return true;
  }

  /** Appends the event with the next ID and wakes the long-polls waiting on the queue. */
  push(event: Event): void {
    // Object.assign, not a spread with a field after it: V8 (Node 20) takes a slow path for that,
    // 0.7 µs against 0.15 per queue an event goes to. (An own "__proto__" key, which assign would
    // set as the prototype, is copied as data by the spread.)
    const id = this.nextEventId++;
    this.events.push(Object.hasOwn(event, '__proto__') ? { ...event, id } : Object.assign({}, event, { id }));
    this.wake('event');
  }

  /** Drops the events the client has acknowledged (IDs up to and including throughId). */
  prune(throughId: number): void {
    let i = 0;
    while (i < this.events.length && (this.events[i].id as number) <= throughId) i++;
    if (i) this.events.splice(0, i);
  }

  contents(): Event[] {
    return [...this.events];
  }

  /** Events held, not yet acknowledged. */
  get length(): number {
    return this.events.length;
  }

  get empty(): boolean {
    return this.events.length === 0;
  }

  /** Call EventHub.touch instead, which also moves the queue in its user's collection order. */
  touch(now: number): void {
    this.lastActivity = now;
  }

  /** Mock-clock time of the last registration or poll, and whether a long-poll is waiting on it now. */
  get lastPolled(): number {
    return this.lastActivity;
  }

  get polling(): boolean {
    return !!this.waiters?.size;
  }

  /** When the queue expires if nobody polls it before (mock-clock seconds). */
  get expiresAt(): number {
    return this.lastActivity + this.options.idleTimeoutSecs;
  }

  /** Idle: nobody is polling it and it was last polled idleTimeoutSecs or more ago. */
  isExpired(now: number): boolean {
    return !this.waiters?.size && now - this.lastActivity >= this.options.idleTimeoutSecs;
  }

  /** Waits (real time) for the next event, at most timeoutMs. */
  wait(timeoutMs: number): Promise<WaitOutcome> {
    return new Promise((resolve) => {
      const done = (outcome: WaitOutcome) => {
        clearTimeout(timer);
        this.waiters?.delete(done);
        resolve(outcome);
      };
      const timer = setTimeout(() => done('timeout'), timeoutMs);
      (this.waiters ??= new Set()).add(done);
    });
  }

  /** Ends every waiting long-poll; used when the queue is deleted or the server closes. */
  end(): void {
    this.wake('gone');
  }

  private wake(outcome: WaitOutcome): void {
    // Called for every event pushed: a queue nobody waits on (the usual case) copies nothing.
    if (!this.waiters?.size) return;
    for (const waiter of [...this.waiters]) waiter(outcome);
  }
}
