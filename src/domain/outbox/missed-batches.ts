// The messages each pending missed-message email gathers, kept up to date as reads, edits and
// deletions happen, so that releasing the email costs no pass over its messages: a load test
// sends an away user tens of thousands of DMs within one batching period, and looking each up
// again at release (is it still there, still unread, what does it say now) stalled the request
// that released them for 75-83 ms. What the email tells of is the same as such a pass would find:
// the messages still there and unread for the user, each with its HTML as it is at release.
// Only a message that a pending email gathers is watched (an index by message ID). An email that
// leaves the schedule (released, or dropped by the outbox) is only marked closed: deleting its
// tens of thousands of index entries then was most of what its release still cost. Entries of
// closed batches are skipped when met, and the index is made anew from the open batches once
// they are more than half of it.
import { DerivedSlot } from '../../store/derived.js';
import type { Message } from '../../store/state.js';
import type { Store } from '../../store/store.js';

/** Why a message notified the user by email: its trigger, and the group when a group mention did. */
export interface EmailReason {
  trigger: string;
  group: string | null;
}

/** One pending email's messages, in the order gathered; parallel arrays, no object per message. */
export interface Batch {
  readonly userId: number;
  readonly ids: number[];
  readonly reasons: EmailReason[];
  readonly senderIds: number[];
  /** Each message's HTML as it is now (an edit while the email waits replaces it). */
  readonly htmls: string[];
  /** The sum of the HTMLs' lengths (the email's size estimate). */
  htmlChars: number;
  /** Messages per sender: the senders' names are looked up once each, at release. */
  readonly senders: Map<number, number>;
  /** The first reason of each kind (trigger and group), in the order gathered. */
  readonly firstReasons: EmailReason[];
  readonly reasonKinds: Set<string>;
  /** Messages not to tell of as things stand: read by the user, no longer theirs, or deleted. */
  readonly gone: Set<number>;
  /** Whether its email is still scheduled (a closed batch changes no more). */
  open: boolean;
}

const kindOf = (r: EmailReason) => (r.group === null ? r.trigger : `${r.trigger}\u0000${r.group}`);

/** Whether the user's flags on the message leave it for the email: still theirs, still unread. */
const unreadBy = (message: Message, userId: number): boolean => {
  const flags = message.flags[String(userId)];
  return !!flags && !flags.includes('read');
};

export class MissedBatches {
  /** The batches gathering each message (one per user it notified by email), closed ones included. */
  private index = new Map<number, Batch | Batch[]>();
  /** The open batches, and how many index entries (message and batch) are of closed ones. */
  private readonly open = new Set<Batch>();
  private entries = 0;
  private closedEntries = 0;
  private store: Store | null = null;

  attach(store: Store): this {
    if (this.store === store) return this;
    this.store = store;
    store.onChange((change) => {
      if (change.t === 'load') {
        this.index = new Map();
        this.open.clear();
        this.entries = this.closedEntries = 0;
        return;
      }
      if (change.t === 'realm' || change.c !== 'messages' || change.t === 'insert' || !this.index.size) return;
      const id = Number(change.key);
      const entry = this.index.get(id);
      if (!entry) return;
      if (change.t === 'remove') {
        for (const batch of Array.isArray(entry) ? entry : [entry]) {
          if (batch.open) batch.gone.add(id);
          else this.closedEntries--;
          this.entries--;
        }
        this.index.delete(id);
        return;
      }
      const patch = change.patch as Partial<Message>;
      const message = store.messages.get(id);
      if (!message || !('flags' in patch || 'rendered_content' in patch)) return;
      for (const batch of Array.isArray(entry) ? entry : [entry]) {
        if (!batch.open) continue;
        if ('flags' in patch) {
          if (unreadBy(message, batch.userId)) batch.gone.delete(id);
          else batch.gone.add(id);
        }
        if ('rendered_content' in patch) {
          const at = positionOf(batch.ids, id);
          batch.htmlChars += message.rendered_content.length - batch.htmls[at].length;
          batch.htmls[at] = message.rendered_content;
        }
      }
    });
    return this;
  }

  /** A new batch for the user's next email about this conversation. */
  start(userId: number): Batch {
    const batch: Batch = {
      userId,
      ids: [],
      reasons: [],
      senderIds: [],
      htmls: [],
      htmlChars: 0,
      senders: new Map(),
      firstReasons: [],
      reasonKinds: new Set(),
      gone: new Set(),
      open: true,
    };
    this.open.add(batch);
    return batch;
  }

  /** Gathers `message` (sent after those gathered before) into the batch. */
  add(batch: Batch, message: Message, reason: EmailReason): void {
    const id = message.id;
    batch.ids.push(id);
    batch.reasons.push(reason);
    batch.senderIds.push(message.sender_id);
    batch.htmls.push(message.rendered_content);
    batch.htmlChars += message.rendered_content.length;
    batch.senders.set(message.sender_id, (batch.senders.get(message.sender_id) ?? 0) + 1);
    const kind = kindOf(reason);
    if (!batch.reasonKinds.has(kind)) {
      batch.reasonKinds.add(kind);
      batch.firstReasons.push(reason);
    }
    // Read before its turn came (the notifications run after the sender's answer).
    if (!unreadBy(message, batch.userId)) batch.gone.add(id);
    this.indexed(id, batch);
    if (this.closedEntries > 1024 && this.closedEntries * 2 > this.entries) this.reindex();
  }

  private indexed(id: number, batch: Batch): void {
    const entry = this.index.get(id);
    if (!entry) this.index.set(id, batch);
    else if (Array.isArray(entry)) entry.push(batch);
    else this.index.set(id, [entry, batch]);
    this.entries++;
  }

  /** The batch's email left the schedule: its messages are watched no longer (see the top). */
  close(batch: Batch): void {
    if (!batch.open) return;
    batch.open = false;
    this.open.delete(batch);
    this.closedEntries += batch.ids.length;
  }

  /** The index of the open batches only: the work of their messages, not of those released. */
  private reindex(): void {
    this.index = new Map();
    this.entries = this.closedEntries = 0;
    for (const batch of this.open) for (const id of batch.ids) this.indexed(id, batch);
  }
}

/** Where `id` is in `ids`, gathered in ascending order (a binary search; a scan should they not be). */
function positionOf(ids: number[], id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid] === id) return mid;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return ids.indexOf(id);
}

/** The reasons of the gathered messages at these positions: the first of each kind, in order. */
export function firstReasonsAt(batch: Batch, positions: number[]): EmailReason[] {
  const kinds = new Set<string>();
  const out: EmailReason[] = [];
  for (const i of positions) {
    const reason = batch.reasons[i];
    const kind = kindOf(reason);
    if (kinds.has(kind)) continue;
    kinds.add(kind);
    out.push(reason);
  }
  return out;
}

const MISSED_BATCHES = new DerivedSlot(() => new MissedBatches());

export const missedBatchesOf = (store: Store): MissedBatches => store.derived.of(MISSED_BATCHES).attach(store);
