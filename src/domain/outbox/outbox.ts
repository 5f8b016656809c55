// The outbox of one world: what the real server would have sent elsewhere (emails, push
// notifications handed to its push bouncer), kept so that tests can read them. Bounded like the
// journal, in entries and in bytes, oldest first out. Emails the real server sends later (the
// invitation reminder, missed-message emails) wait here, unseen, until the world's clock reaches
// them; a reset or an imported state forgets them with the rest. The notifications of new
// messages are built after the sender's answer (`queue`, send-queue.ts); every query runs what is
// queued first, so that a reader sees all that was sent before it asked. A message's push
// notifications are recorded lazily (recordLazy): what they are built from is taken when they are
// sent, and the payload (the E2EE sealing included) is built the first time anything reads the
// item, or at once while something listens (the outbox stream, --push-target). Most notifications
// of a busy mock are never read: they leave the bounded outbox unbuilt.
import { DerivedSlot } from '../../store/derived.js';
import type { Store } from '../../store/store.js';
import { SendQueue } from './send-queue.js';
import { ArrivalOrder } from './arrival-order.js';

interface EmailItem {
  kind: 'email';
  /** Which of the real server's emails: invitation, invitation_reminder, confirm_new_email, notify_change_in_email, missed_message. */
  template: string;
  to: string;
  /** The recipient's account, when they have one. */
  user_id: number | null;
  /** The sender's name and address, where the mock records them (the email-change emails). */
  from_name?: string;
  from_address?: string;
  subject: string;
  text: string;
  /** The links a reader would follow, by name (activate_url, confirm_url, narrow_url...). */
  links: Record<string, string>;
  /** Missed-message emails: the messages it tells of. */
  message_ids?: number[];
}

interface PushItem {
  kind: 'push';
  user_id: number;
  device_id: number;
  /** android (FCM data payload), ios (APNs payload) or e2ee (encrypted for the device's push key). */
  form: 'android' | 'ios' | 'e2ee';
  /**
   * message, remove (the messages were read, or an edit took the mention away) or test
   * (POST /mobile_push/test_notification or /mobile_push/e2ee/test_notification; no messages).
   */
  event: 'message' | 'remove' | 'test';
  message_ids: number[];
  /** What the push bouncer gets (the E2EE form: encrypted_data, sealed with the device's push key). */
  payload: Record<string, unknown>;
  /** The E2EE form only, and the mock's own addition: the JSON that encrypted_data decrypts to. */
  plaintext?: Record<string, unknown>;
}

export type OutboxContent = EmailItem | PushItem;
/** A recorded item: its own sequence number and when it was sent (mock clock, UNIX milliseconds). */
export type OutboxItem = OutboxContent & { id: number; time: number };

export interface OutboxQuery {
  kind?: 'email' | 'push';
  /** Items for this account (emails to it, its pushes). */
  user_id?: number;
  /** Emails to this address (case-insensitive). */
  email?: string;
  device?: number;
  since_id?: number;
  limit?: number;
}

/** The bounds: enough for a long test run, small enough for a mock that runs for days. */
const MAX_OUTBOX_ITEMS = 5000;
const MAX_OUTBOX_BYTES = 16 * 1024 * 1024;

/** What the payload of a lazily recorded push notification is built from, taken when it was sent. */
export interface LazyPush {
  /**
   * The item's fields but the payload, known when it is sent (what queries filter on). Made for
   * the call: recordLazy makes it the recorded item (adding its id and time).
   */
  head: Omit<PushItem, 'payload' | 'plaintext'>;
  /** The payload (and the E2EE plaintext), built from a snapshot of the inputs: it reads no live state. */
  build: () => Pick<PushItem, 'payload' | 'plaintext'>;
  /** About the size of the built item, for the byte bound until it is built (see approxJsonSize). */
  estimate: number;
}

/**
 * A released email whose text is written when first read (a missed-message email over the
 * thousands of messages a load test sends an away user took a tenth of a second to write, in
 * the request that happened to release it): the head is what queries filter on, `build` writes
 * the text from a snapshot taken at release, reading no live state.
 */
export interface LazyEmail {
  head: Omit<EmailItem, 'text'>;
  build: () => Pick<EmailItem, 'text'>;
  /** About the size of the written email, for the byte bound until it is written. */
  estimate: number;
}

const isLazyEmail = (value: OutboxContent | LazyEmail): value is LazyEmail => 'build' in value;

/** A recorded item; `build` is set while its payload is not built yet (the item then lacks it). */
interface Entry {
  item: OutboxItem;
  size: number;
  build: (() => Partial<OutboxContent>) | null;
}

interface Pending {
  dueMs: number;
  content: OutboxContent;
  tag: string | null;
  /** Items sent together (a user's missed-message emails): earliestDue() looks within one group. */
  group: string | null;
  /** Called when it leaves the schedule (sent, cancelled, or given up for a newer one). */
  onLeave: (() => void) | null;
}

export class Outbox {
  /** Oldest first, from `first` on: the oldest leave by moving `first` (no shift() of 5000 entries per record). */
  private items: Array<Entry | undefined> = [];
  private first = 0;
  private bytes = 0;
  private nextId = 1;
  /*
   * Scheduled sendings, in the order they were scheduled, indexed by tag and by group: every request
   * ticks the world (releaseDue) and every invitation or notifying message looks one up, so none of
   * these may cost a pass over the thousands an organization can have pending.
   */
  private pending = new Set<Pending>();
  /**
   * The same sendings in the order they were scheduled: the oldest, which a full schedule gives
   * up, is found without asking the Set for its first value, which walks every slot its earlier
   * deletions left empty (5-6 µs with 5,000 pending, on every invitation past the bound).
   */
  private readonly order = new ArrivalOrder<Pending>((p) => this.pending.has(p));
  private byTag = new Map<string, Pending>();
  private byGroup = new Map<string, Set<Pending>>();
  /** No pending item is due before this (a lower bound: a cancelled item may have set it). */
  private nextDueMs = Infinity;
  private listeners: Array<(item: OutboxItem) => void> = [];
  private store: Store | null = null;
  /** Per message, the users whose devices still show its push notification, with its trigger (for `remove`). */
  private pushed = new Map<number, Map<number, string>>();
  /** The messages of `pushed` in the order they came: the oldest goes first once it is full. */
  private readonly pushedOrder = new ArrivalOrder<number>((id) => this.pushed.has(id));
  /** Sending work queued by the send path, run after the answer (see send-queue.ts). */
  readonly queue = new SendQueue();

  /** Ties the outbox to its world's store: a reset or an import forgets scheduled sendings. */
  attach(store: Store): this {
    if (this.store === store) return this;
    this.store = store;
    store.onChange((change) => {
      if (change.t === 'load') {
        this.queue.clear();
        this.forgetPending();
        this.pushed.clear();
        this.pushedOrder.clear();
      }
    });
    return this;
  }

  /** Records something sent now (mock clock, ms). */
  record(content: OutboxContent, nowMs: number): OutboxItem {
    // Object.assign, not a spread with fields after it: V8 (Node 20) takes a slow path for that,
    // about 2 µs an item here against 0.2.
    const item = Object.assign({}, content, { id: this.nextId++, time: nowMs }) as OutboxItem;
    this.add({ item, size: itemSize(item), build: null });
    return item;
  }

  /**
   * Records a push notification sent now whose payload is built when first read (at once while
   * something listens). The item is the same as record() would have made of the built content.
   */
  recordLazy(push: LazyPush | LazyEmail, nowMs: number): void {
    // The head becomes the item (its caller made it for this call and keeps no reference): no
    // copy of it per notification, whose every item outlives many collections in the bounded
    // outbox. The fields come in the same order as a copy's.
    const item = push.head as OutboxItem;
    item.id = this.nextId++;
    item.time = nowMs;
    this.add({ item, size: push.estimate, build: push.build });
  }

  private add(entry: Entry): void {
    this.items.push(entry);
    this.bytes += entry.size;
    // A listener gets every item whole (the stream, --push-target): built now, as record() builds.
    if (this.listeners.length) this.built(entry);
    this.trim();
    for (const l of this.listeners) {
      try {
        l(entry.item);
      } catch {
        /* a listener's failure (a closed stream) is its own */
      }
    }
  }

  private get length(): number {
    return this.items.length - this.first;
  }

  /** Drops the oldest items past the bounds (one item always stays, however large). */
  private trim(): void {
    while (this.length > MAX_OUTBOX_ITEMS || (this.bytes > MAX_OUTBOX_BYTES && this.length > 1)) {
      this.bytes -= this.items[this.first]!.size;
      this.items[this.first++] = undefined;
    }
    if (this.first > 1024 && this.first * 2 > this.items.length) {
      this.items = this.items.slice(this.first);
      this.first = 0;
    }
  }

  /** The entry's item, its payload built first if it was not yet (once: the entry keeps it), sized anew. */
  private built(entry: Entry): OutboxItem {
    if (!entry.build) return entry.item;
    const { id, time, ...head } = entry.item;
    const item = { ...head, ...entry.build(), id, time } as OutboxItem;
    entry.build = null;
    entry.item = item;
    const size = itemSize(item);
    this.bytes += size - entry.size;
    entry.size = size;
    return item;
  }

  /**
   * Sends `content` once the clock reaches dueMs; `tag` names it (one item per tag), `group` gathers
   * it with others; `onLeave` is told when it leaves the schedule, whether sent or not.
   */
  schedule(
    content: OutboxContent,
    dueMs: number,
    tag: string | null = null,
    group: string | null = null,
    onLeave: (() => void) | null = null,
  ): void {
    if (this.pending.size >= MAX_OUTBOX_ITEMS) this.unschedule(this.order.takeOldest()!);
    if (tag !== null) this.cancel(tag);
    const p: Pending = { dueMs, content, tag, group, onLeave };
    this.pending.add(p);
    this.order.push(p, this.pending.size);
    if (tag !== null) this.byTag.set(tag, p);
    if (group !== null) {
      let members = this.byGroup.get(group);
      if (!members) this.byGroup.set(group, (members = new Set()));
      members.add(p);
    }
    if (dueMs < this.nextDueMs) this.nextDueMs = dueMs;
  }

  /** Forgets the scheduled sending tagged so (a revoked invitation's reminder). */
  cancel(tag: string): void {
    const p = this.byTag.get(tag);
    if (p) this.unschedule(p);
  }

  private unschedule(p: Pending): void {
    if (!this.pending.delete(p)) return;
    p.onLeave?.();
    if (p.tag !== null && this.byTag.get(p.tag) === p) this.byTag.delete(p.tag);
    if (p.group !== null) {
      const members = this.byGroup.get(p.group);
      members?.delete(p);
      if (members && !members.size) this.byGroup.delete(p.group);
    }
  }

  private forgetPending(): void {
    this.pending.clear();
    this.order.clear();
    this.byTag.clear();
    this.byGroup.clear();
    this.nextDueMs = Infinity;
  }

  /**
   * Sends what has become due, in the order it was due (when something is, what is queued goes
   * to the schedule first); `stillWanted` may drop one (a message read meanwhile).
   */
  releaseDue(
    nowMs: number,
    stillWanted: (content: OutboxContent, tag: string | null) => OutboxContent | LazyEmail | null = (c) => c,
  ): void {
    if (nowMs < this.nextDueMs) return;
    // Emails the queue would schedule join the schedule first (the control API's clock flushes
    // the queue before it moves, so that a sent message's email is scheduled before time passes).
    this.queue.flush();
    const due: Pending[] = [];
    let next = Infinity;
    for (const p of this.pending) {
      if (p.dueMs <= nowMs) due.push(p);
      else if (p.dueMs < next) next = p.dueMs;
    }
    this.nextDueMs = next;
    due.sort((a, b) => a.dueMs - b.dueMs);
    for (const p of due) this.unschedule(p);
    for (const p of due) {
      const content = stillWanted(p.content, p.tag);
      if (content && isLazyEmail(content)) this.recordLazy(content, p.dueMs);
      else if (content) this.record(content, p.dueMs);
    }
  }

  /** A user's devices now show the message's push notification, sent for `trigger`. */
  notePushed(messageId: number, userId: number, trigger: string): void {
    let users = this.pushed.get(messageId);
    if (!users) {
      // Oldest first out: a notification this old is long gone from the devices anyway.
      if (this.pushed.size >= MAX_OUTBOX_ITEMS * 10) this.pushed.delete(this.pushedOrder.takeOldest()!);
      this.pushed.set(messageId, (users = new Map()));
      this.pushedOrder.push(messageId, this.pushed.size);
    }
    users.set(userId, trigger);
  }

  /** Who still has the message's push notification, and for what. */
  pushedFor(messageId: number): ReadonlyMap<number, string> | undefined {
    return this.pushed.get(messageId);
  }

  /** The notification is taken back (or the message is gone). */
  forgetPushed(messageId: number, userId?: number): void {
    if (userId === undefined) {
      this.pushed.delete(messageId);
      return;
    }
    const users = this.pushed.get(messageId);
    users?.delete(userId);
    if (users && !users.size) this.pushed.delete(messageId);
  }

  /** The pending item tagged so (to add to it before it is sent), or null. */
  pendingTagged(tag: string): { dueMs: number; content: OutboxContent } | null {
    return this.byTag.get(tag) ?? null;
  }

  /** The earliest due time among the group's pending items, or null. */
  earliestDue(group: string): number | null {
    let earliest: number | null = null;
    for (const p of this.byGroup.get(group) ?? []) if (earliest === null || p.dueMs < earliest) earliest = p.dueMs;
    return earliest;
  }

  /** Matching items, newest first (what is queued sent first); count is how many matched before the limit. */
  query(q: OutboxQuery = {}): { count: number; items: OutboxItem[] } {
    this.queue.flush();
    const limit = q.limit ?? 200;
    const out: OutboxItem[] = [];
    let count = 0;
    let builtAny = false;
    for (let i = this.items.length - 1; i >= this.first; i--) {
      const entry = this.items[i]!;
      // The fields a query filters on are known before the payload is built: only what is returned is built.
      if (!matches(entry.item, q)) continue;
      count++;
      if (out.length >= limit) continue;
      builtAny ||= entry.build !== null;
      out.push(this.built(entry));
    }
    // Built items are sized exactly, no longer estimated: the byte bound applies to what they take now.
    if (builtAny) this.trim();
    return { count, items: out };
  }

  /** Forgets what was recorded, what is queued included (it was sent before the clearing). */
  clear(): void {
    this.queue.flush();
    this.items = [];
    this.first = 0;
    this.bytes = 0;
  }

  onRecord(listener: (item: OutboxItem) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }
}

/** What an item counts for in the byte bound: about its JSON, and what holding it costs besides. */
const itemSize = (item: OutboxItem): number => approxJsonSize(item) + 100;

/**
 * About the length of `value`'s JSON, for the byte bound: a tenth of the cost of JSON.stringify,
 * which the sending of every notification would otherwise pay.
 */
function approxJsonSize(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return 12;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      let n = 2;
      // Indexes and for-in, not for-of and Object.entries: no iterator or array made per object
      // (a quarter of the cost, measured on a push notification's item).
      if (Array.isArray(value)) for (let i = 0; i < value.length; i++) n += approxJsonSize(value[i]) + 1;
      else for (const k in value) n += k.length + 4 + approxJsonSize((value as Record<string, unknown>)[k]);
      return n;
    }
    default:
      return 0;
  }
}

function matches(item: OutboxItem, q: OutboxQuery): boolean {
  if (q.kind && item.kind !== q.kind) return false;
  if (q.since_id !== undefined && item.id <= q.since_id) return false;
  if (q.device !== undefined && (item.kind !== 'push' || item.device_id !== q.device)) return false;
  if (q.user_id === undefined && q.email === undefined) return true;
  if (q.user_id !== undefined && item.user_id === q.user_id) return true;
  return q.email !== undefined && item.kind === 'email' && item.to.toLowerCase() === q.email.toLowerCase();
}

/**
 * Kept beside the store as a derived value is, though it is not derived from the state: the
 * store is what every action already holds, so that no action needs a new parameter to send.
 */
const OUTBOX = new DerivedSlot(() => new Outbox());

export const outboxOf = (store: Store): Outbox => store.derived.of(OUTBOX).attach(store);
