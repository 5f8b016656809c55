// The request journal: what every API request asked and got. Bounded in entries and in bytes so
// that a mock serving millions of requests keeps a steady memory footprint; oldest entries go first.
import type { Exchange } from '../http/exchange.js';
import { containsParams } from './scenarios/engine.js';

export interface JournalEntry {
  id: number;
  time: number;
  sandbox: string;
  method: string;
  path: string;
  operation: string | null;
  user: string | null;
  params: Record<string, unknown>;
  status: number;
  code: string | null;
  problems: Array<{ path: string; message: string }>;
  scenario: string | null;
  duration_ms: number;
  response: unknown;
}

export interface JournalQuery {
  operation?: string;
  method?: string;
  path?: string;
  user?: string;
  status?: number;
  code?: string;
  sandbox?: string;
  params?: Record<string, unknown>;
  since_id?: number;
  limit?: number;
}

/** Bodies larger than this are kept as a note, not as JSON. */
const MAX_BODY_CHARS = 16 * 1024;

export class Journal {
  private entries: JournalEntry[] = [];
  private head = 0;
  private bytes = 0;
  private readonly sizes = new Map<number, number>();
  private listeners: Array<(entry: JournalEntry) => void> = [];

  constructor(readonly maxEntries = 5000, readonly maxBytes = 24 * 1024 * 1024) {}

  record(ex: Exchange): JournalEntry {
    const bytes = ex.bodyBytes ?? Buffer.from(JSON.stringify(ex.body) ?? 'null');
    // The response is kept as the bytes that were sent and parsed when read: a snapshot that later
    // changes to shared objects cannot alter, a third of the memory of the objects, and outside the
    // JavaScript heap (keeping the objects, or even their text, made every answer survive into the
    // old generation: the garbage collector copied and then swept them all).
    const response = storedResponse(bytes);
    const entry: JournalEntry = {
      id: ex.id, time: Math.round(ex.time), sandbox: ex.sandbox, method: ex.method, path: ex.path,
      operation: ex.operation?.id ?? null, user: ex.user?.email ?? null, params: ex.params ?? ex.raw,
      status: ex.status, code: typeof (ex.body as any)?.code === 'string' ? (ex.body as any).code : null,
      problems: ex.problems, scenario: ex.scenario, duration_ms: Math.round(ex.duration_ms * 1000) / 1000,
      get response() { return response(); },
    };
    const size = Math.min(bytes.length, MAX_BODY_CHARS) + JSON.stringify(entry.params).length + 300;
    this.entries.push(entry);
    this.sizes.set(entry.id, size);
    this.bytes += size;
    while (this.entries.length - this.head > this.maxEntries || this.bytes > this.maxBytes) this.evictOldest();
    for (const l of this.listeners) l(entry);
    return entry;
  }

  private evictOldest(): void {
    const old = this.entries[this.head];
    // Let the evicted entry go now: until the next compaction its slot would keep it (and its
    // response) alive, up to doubling the journal's memory.
    (this.entries as Array<JournalEntry | undefined>)[this.head++] = undefined;
    this.bytes -= this.sizes.get(old.id) ?? 0;
    this.sizes.delete(old.id);
    // Compact now and then rather than shifting the array on every eviction.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  get size(): number { return this.entries.length - this.head; }
  get approximateBytes(): number { return this.bytes; }

  clear(): void {
    this.entries = [];
    this.head = 0;
    this.bytes = 0;
    this.sizes.clear();
  }

  /** Matching entries, newest first, and how many matched before the limit. */
  query(q: JournalQuery): { count: number; entries: JournalEntry[] } {
    const limit = q.limit ?? 200;
    const out: JournalEntry[] = [];
    let count = 0;
    for (let i = this.entries.length - 1; i >= this.head; i--) {
      const e = this.entries[i];
      if (q.since_id !== undefined && e.id <= q.since_id) break;
      if (!matches(e, q)) continue;
      count++;
      if (out.length < limit) out.push(e);
    }
    return { count, entries: out };
  }

  onRecord(listener: (entry: JournalEntry) => void): () => void {
    this.listeners.push(listener);
    return () => { this.listeners = this.listeners.filter((l) => l !== listener); };
  }
}

/** Reads back a response body: the whole text, or a note for one too large to keep. */
function storedResponse(bytes: Buffer): () => unknown {
  return bytes.length <= MAX_BODY_CHARS ? () => JSON.parse(bytes.toString()) : truncatedNote(bytes.toString());
}

/** Separate from storedResponse so that the closure cannot hold on to the large body. */
function truncatedNote(text: string): () => unknown {
  // A copy of the start: a plain slice would keep the whole large text alive.
  const note = { truncated: true, chars: text.length, start: Buffer.from(text.slice(0, 2000)).toString() };
  return () => note;
}

function matches(e: JournalEntry, q: JournalQuery): boolean {
  if (q.operation && e.operation !== q.operation) return false;
  if (q.method && e.method.toUpperCase() !== q.method.toUpperCase()) return false;
  if (q.path && e.path !== q.path) return false;
  if (q.user && e.user?.toLowerCase() !== q.user.toLowerCase()) return false;
  if (q.status !== undefined && e.status !== q.status) return false;
  if (q.code && e.code !== q.code) return false;
  if (q.sandbox && e.sandbox !== q.sandbox) return false;
  if (q.params && !containsParams(e.params, q.params)) return false;
  return true;
}
