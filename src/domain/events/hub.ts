// The event queues of one world: created by POST /register, read by GET /events, deleted by
// DELETE /events or when idle. Domain actions publish events here; each event goes to every
// queue of its users that asked for its type, with an ID of that queue's own sequence.
import { ApiError } from '../../errors.js';
import type { EventSink, QueueTraits } from '../context.js';
import type { Store } from '../../store/store.js';
import { EventQueue, type Event, type QueueOptions } from './queue.js';
import { presentAll } from './present.js';
import { UserQueues } from './user-queues.js';

/** The real server answers an unknown queue, and another user's queue, the same way. */
export const badEventQueueId = (queueId: string) =>
  new ApiError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, 400, { queue_id: queueId });

/**
 * Bounds of the mock's own (the real server has none but its idle timeout, and a process per
 * shard): one user's queues (a new one past it collects the one polled longest ago), and the
 * events one queue holds unacknowledged. A queue past the second has fallen too far behind to
 * catch up: it is garbage-collected, and its next poll gets BAD_EVENT_QUEUE_ID, as after any
 * collection, so that the client registers again.
 */
export const MAX_QUEUES_PER_USER = 1000;
export const MAX_EVENTS_PER_QUEUE = 10_000;

export type PerQueue = (queueId: string, userId: number, queue?: QueueTraits) => Event | null;

export class EventHub implements EventSink {
  private readonly queues = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, UserQueues>();
  closed = false;
  /** No queue expires before this (mock-clock seconds): until then the idle sweep has nothing to do. */
  private earliestExpiry = Infinity;
  private lastSweep = -Infinity;

  /** The world's store, to tell public channels for all_public_streams queues. */
  constructor(private readonly store: Store | null = null) {}

  register(options: QueueOptions): EventQueue {
    const mine = this.byUser.get(options.userId);
    if (mine && mine.size >= MAX_QUEUES_PER_USER) this.collectOldest(mine);
    const queue = new EventQueue(options);
    this.queues.set(queue.id, queue);
    this.earliestExpiry = Math.min(this.earliestExpiry, queue.expiresAt);
    let own = mine;
    if (!own) this.byUser.set(queue.userId, (own = new UserQueues()));
    own.add(queue);
    return queue;
  }

  /** The user's queue, or BAD_EVENT_QUEUE_ID (also for an expired one not collected yet). */
  access(userId: number, queueId: string, now: number): EventQueue {
    const queue = this.queues.get(queueId);
    if (!queue || queue.userId !== userId) throw badEventQueueId(queueId);
    if (queue.isExpired(now)) {
      this.delete(queue);
      throw badEventQueueId(queueId);
    }
    return queue;
  }

  /**
   * Makes room for one more of a user's queues: the one polled longest ago goes, as if it had
   * expired (the real server never refuses a registration). Refused only when every one of them
   * has a long-poll waiting on it.
   */
  private collectOldest(queues: UserQueues): void {
    const oldest = queues.oldestIdle();
    if (!oldest)
      throw new ApiError(
        'BAD_REQUEST',
        `Too many event queues: at most ${MAX_QUEUES_PER_USER} per user, each polled now`,
      );
    this.delete(oldest);
  }

  /** A poll of the queue (mock-clock seconds): it is the last of its user's to be collected. */
  touch(queue: EventQueue, now: number): void {
    queue.touch(now);
    this.byUser.get(queue.userId)?.touched(queue);
  }

  delete(queue: EventQueue): void {
    this.queues.delete(queue.id);
    const mine = this.byUser.get(queue.userId);
    mine?.delete(queue);
    if (mine?.size === 0) this.byUser.delete(queue.userId);
    queue.end();
  }

  /** Whether any queue exists: without one, an event costly to build need not be built. */
  get listening(): boolean {
    return this.queues.size > 0;
  }

  /**
   * Appends `event` to each queue of `userIds` that wants it. `perQueue` may return that queue's
   * own variant of the event (e.g. with local_message_id), or null to leave the queue out.
   */
  publish(userIds: Iterable<number>, event: Event, perQueue?: PerQueue): void {
    const users = new Set(userIds);
    for (const userId of users) {
      for (const queue of this.byUser.get(userId)?.wanting(event.type) ?? []) this.offer(queue, event, perQueue);
    }
    // all_public_streams queues also see the messages of public channels they are not in.
    if (this.isPublicChannelMessage(event)) {
      for (const queue of this.queues.values()) {
        if (queue.options.allPublicStreams && !users.has(queue.userId)) this.offer(queue, event, perQueue);
      }
    }
  }

  private offer(queue: EventQueue, event: Event, perQueue?: PerQueue): void {
    // The type first: a queue that does not take it needs no variant made for it.
    if (!queue.wantsType(event.type)) return;
    let chosen = perQueue ? perQueue(queue.id, queue.userId, queue.options) : event;
    if (chosen === null || !queue.accepts(chosen)) return;
    // At an older level, as that server would send it (or not at all).
    if (queue.options.shape && (chosen = queue.options.shape(chosen)) === null) return;
    for (const e of presentAll(queue, chosen, this.store)) queue.push(e);
    if (queue.length > MAX_EVENTS_PER_QUEUE) this.delete(queue);
  }

  private isPublicChannelMessage(event: Event): boolean {
    const message = event.message as { type?: unknown; stream_id?: unknown } | undefined;
    if (event.type !== 'message' || message?.type !== 'stream' || !this.store) return false;
    const stream = this.store.streams.get(message.stream_id as number);
    return !!stream && !stream.invite_only;
  }

  /** Garbage-collects the queues nobody has polled for their idle timeout (mock-clock time). */
  expireIdle(now: number): void {
    // Runs every second: with thousands of queues a sweep each time showed in request latency.
    // Polling only moves expiries later, so the earliest one seen at the last sweep is a lower
    // bound; a clock moved back makes every bound doubtful, hence a sweep.
    if (now >= this.lastSweep && now < this.earliestExpiry) {
      this.lastSweep = now;
      return;
    }
    this.lastSweep = now;
    let earliest = Infinity;
    for (const queue of [...this.queues.values()]) {
      if (queue.isExpired(now)) this.delete(queue);
      else earliest = Math.min(earliest, queue.expiresAt);
    }
    this.earliestExpiry = earliest;
  }

  /** Whether a queue of the user takes message events (the real server's receiver_is_off_zulip, negated). */
  receivesMessages(userId: number): boolean {
    for (const queue of this.byUser.get(userId)?.all ?? []) if (queue.wantsType('message')) return true;
    return false;
  }

  /** The queues of a user (tests and the inspector). */
  queuesOf(userId: number): EventQueue[] {
    return [...(this.byUser.get(userId)?.all ?? [])];
  }

  get size(): number {
    return this.queues.size;
  }

  /** Drops every queue; their waiting long-polls get BAD_EVENT_QUEUE_ID (world reset). */
  clear(): void {
    for (const queue of [...this.queues.values()]) this.delete(queue);
  }

  /** Server shutdown: waiting long-polls end with a normal (empty) answer. */
  close(): void {
    this.closed = true;
    this.clear();
  }
}
