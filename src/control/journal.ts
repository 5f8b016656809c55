// The request journal: what every API request asked and got. Bounded in entries and in bytes so
// that a mock serving millions of requests keeps a steady memory footprint; oldest entries go first.
import { isAscii } from 'node:buffer';
import { redact, redactBytes, redactPath, redactTemporaryUrls, TEMPORARY_URL } from './redact.js';
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
  /** true: only entries whose response broke the description; false: only those that did not. */
  problems?: boolean;
  limit?: number;
}

/** Bodies larger than this are kept as a note, not as JSON. */
const MAX_BODY_CHARS = 16 * 1024;
/** What a truncated answer shows: its first characters. */
const START_CHARS = 2000;
/** What a truncated answer keeps as bytes: enough for its first 2,000 characters in UTF-8. */
const START_BYTES = 8 * 1024;
/**
 * What a truncated answer keeps as text (see startText): its first characters, and enough after
 * them to see whether a temporary URL starts among them.
 */
const START_TEXT_CHARS = START_CHARS + TEMPORARY_URL.length;

/**
 * One journal entry. Kept as compact as it can be: every entry lives through several garbage
 * collections before it is evicted, and each object it holds is copied by each of them. The
 * response stays the bytes that were sent (outside the JavaScript heap, shared with a reused
 * answer) and is parsed when read; being a getter on the class, it costs no closure per entry.
 */
class Entry implements JournalEntry {
  readonly id: number;
  readonly time: number;
  readonly sandbox: string;
  readonly method: string;
  readonly path: string;
  readonly operation: string | null;
  readonly user: string | null;
  readonly params: Record<string, unknown>;
  readonly status: number;
  readonly code: string | null;
  readonly problems: Array<{ path: string; message: string }>;
  readonly scenario: string | null;
  readonly duration_ms: number;
  /** The answer's bytes, the start of a large one's as bytes, or as text (see startText). */
  readonly #bytes: Buffer | string;
  readonly #size: number;
  readonly #total: number;

  /**
   * `fields`: the entry as JournalEntry has it but its response; `bytes`: the response as sent
   * (or, for a large one, the start it keeps, made by startOf or startText); `total`: the size
   * of the answer.
   */
  constructor(
    fields: Omit<JournalEntry, 'response'>,
    bytes: Buffer | string,
    total = bytes.length,
    sized?: Exchange['sizedParam'],
  ) {
    // Assigned one by one, in one order, so that every entry has the same compact shape.
    this.id = fields.id;
    this.time = fields.time;
    this.sandbox = fields.sandbox;
    this.method = fields.method;
    this.path = fields.path;
    this.operation = fields.operation;
    this.user = fields.user;
    this.params = fields.params;
    this.status = fields.status;
    this.code = fields.code;
    this.problems = fields.problems;
    this.scenario = fields.scenario;
    this.duration_ms = fields.duration_ms;
    // A large answer keeps only its start (a copy: not the whole answer's buffer), so that the
    // byte budget counts all that the entry holds.
    this.#total = total;
    this.#bytes = total <= MAX_BODY_CHARS || typeof bytes === 'string' ? bytes : startOf(bytes);
    this.#size = this.#bytes.length + paramsSize(fields.params, sized) + 300;
  }

  /** What the entry counts against the journal's byte budget. */
  get size(): number {
    return this.#size;
  }

  get response(): unknown {
    if (this.#total <= MAX_BODY_CHARS) {
      // Every answer the journal is given is JSON; should one not be, it is shown, never thrown on.
      try {
        return JSON.parse(this.#bytes.toString());
      } catch {
        return { text: this.#bytes.toString() };
      }
    }
    // The start's last character may be cut mid-sequence: 2,000 characters are whole.
    return { truncated: true, bytes: this.#total, start: this.#bytes.toString().slice(0, START_CHARS) };
  }

  toJSON(): JournalEntry {
    const { id, time, sandbox, method, path, operation, user, params, status, code, problems, scenario, duration_ms } =
      this;
    return {
      id,
      time,
      sandbox,
      method,
      path,
      operation,
      user,
      params,
      status,
      code,
      problems,
      scenario,
      duration_ms,
      response: this.response,
    };
  }
}

/** What an entry keeps of a large answer: its start, a copy (not the whole answer's buffer). */
const startOf = (bytes: Buffer): Buffer =>
  bytes.length <= START_BYTES ? bytes : Buffer.from(bytes.subarray(0, START_BYTES));

/**
 * The start a large answer's entry keeps, as text, when its first characters are ASCII and quote
 * no temporary URL (so that redacting would change none of the 2,000 shown): a short string read
 * from the bytes, where copying 8 KiB into a buffer of their own and searching them for the URL
 * took a tenth of a 22 KiB read's CPU. Null otherwise: the entry then keeps bytes (startOf).
 */
function startText(sent: Buffer): string | null {
  // A plain view, not subarray (which looks up the Buffer's species: a third of this function).
  if (!isAscii(new Uint8Array(sent.buffer, sent.byteOffset, START_TEXT_CHARS))) return null;
  const text = sent.toString('latin1', 0, START_TEXT_CHARS);
  return text.includes(TEMPORARY_URL) ? null : text;
}

/**
 * About how much memory parameters take: their text, without serialising them (most are flat);
 * `sized` gives the length of one whose JSON its sender already made.
 */
function paramsSize(params: Record<string, unknown>, sized?: Exchange['sizedParam']): number {
  let size = 2;
  for (const key in params) {
    const v = params[key];
    size +=
      key.length +
      4 +
      (typeof v === 'string'
        ? v.length
        : v !== null && typeof v === 'object'
          ? key === sized?.key
            ? sized.chars
            : jsonSize(v, 0)
          : 8);
  }
  return size;
}

/** Nesting past which jsonSize serialises (no deep recursion here: decoded JSON may nest 100 levels). */
const SIZE_WALK_DEPTH = 16;

/**
 * About the length of `value`'s JSON, walked rather than serialised (a narrow's JSON made again
 * for every read of messages was a sixth of its journal entry): strings by their length, other
 * scalars as 8, keys and punctuation as written.
 */
function jsonSize(value: object, depth: number): number {
  if (depth > SIZE_WALK_DEPTH) return (JSON.stringify(value) ?? '').length;
  let size = 2;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) size += 1 + scalarOrNestedSize(value[i], depth);
    return size;
  }
  for (const key in value)
    if (Object.hasOwn(value, key))
      size += key.length + 4 + scalarOrNestedSize((value as Record<string, unknown>)[key], depth);
  return size;
}

const scalarOrNestedSize = (v: unknown, depth: number): number =>
  typeof v === 'string' ? v.length + 2 : v !== null && typeof v === 'object' ? jsonSize(v, depth + 1) : 8;

const NO_PROBLEMS: JournalEntry['problems'] = Object.freeze([]) as unknown as JournalEntry['problems'];

export class Journal {
  private entries: Array<Entry | undefined> = [];
  private head = 0;
  private bytes = 0;
  private listeners: Array<(entry: JournalEntry) => void> = [];

  /** Operations whose described answers can hold a secret (see redact.ts); null: search every answer. */
  private secretAnswers: { has(operationId: string): boolean } | null = null;

  constructor(
    readonly maxEntries = 5000,
    readonly maxBytes = 24 * 1024 * 1024,
  ) {}

  /** Tells the journal which operations' answers can hold secrets, so that only those are searched. */
  searchSecretsOnlyIn(operationIds: { has(operationId: string): boolean }): void {
    this.secretAnswers = operationIds;
  }

  /**
   * The start a large answer's entry keeps: as text when it can (startText), else as bytes,
   * temporary URLs redacted, by the bytes sent: the same bytes sent again (an answer cache replay:
   * a client polling the same window of messages) share it, rather than copying and searching its
   * 8 KB again. Sent bytes never change.
   */
  private readonly starts = new WeakMap<Buffer, Buffer>();

  private keptStart(sent: Buffer): Buffer | string {
    const text = startText(sent);
    if (text !== null) return text;
    let start = this.starts.get(sent);
    if (!start) this.starts.set(sent, (start = redactTemporaryUrls(startOf(sent))));
    return start;
  }

  record(ex: Exchange): JournalEntry {
    const sent = ex.bodyBytes ?? Buffer.from(JSON.stringify(ex.body) ?? 'null');
    const governed = this.secretAnswers && ex.operation && !ex.scenario && !ex.problems.length;
    // An answer that cannot hold a secret field may still quote a temporary URL (a message that
    // pasted one): one scan for its marker, the whole search only for the others.
    // That scan looks only at what the entry keeps (a large answer's start: a 22 KB read spent a
    // third of its journal time searching bytes the entry then left out). The whole search parses
    // the answer, so it needs all of it.
    const bytes =
      governed && !this.secretAnswers!.has(ex.operation!.id)
        ? sent.length <= MAX_BODY_CHARS
          ? redactTemporaryUrls(sent, ex.bodyText)
          : this.keptStart(sent)
        : redactBytes(sent);
    const code = typeof (ex.body as any)?.code === 'string' ? ((ex.body as any).code as string) : null;
    const entry = new Entry(
      {
        id: ex.id,
        time: Math.round(ex.time),
        sandbox: ex.sandbox,
        method: ex.method,
        path: redactPath(ex.path),
        operation: ex.operation?.id ?? null,
        user: ex.user?.email ?? null,
        params: redact(ex.params ?? ex.raw),
        status: ex.status,
        code,
        problems: ex.problems.length ? ex.problems : NO_PROBLEMS,
        scenario: ex.scenario,
        duration_ms: Math.round(ex.duration_ms * 1000) / 1000,
      },
      bytes,
      sent.length > MAX_BODY_CHARS ? sent.length : bytes.length,
      ex.sizedParam,
    );
    this.insertInIdOrder(entry);
    this.bytes += entry.size;
    while (this.entries.length - this.head > this.maxEntries || this.bytes > this.maxBytes) this.evictOldest();
    for (const l of this.listeners) l(entry);
    return entry;
  }

  /**
   * Entries are kept in id (arrival) order, not in completion order: a long-poll answered after
   * later requests still sorts before them, so that `since_id` can stop at the first id it has
   * seen. Nearly every entry is the newest and goes at the end; a late one is moved a few slots.
   */
  private insertInIdOrder(entry: Entry): void {
    let at = this.entries.length;
    while (at > this.head && this.entries[at - 1]!.id > entry.id) at--;
    if (at === this.entries.length) this.entries.push(entry);
    else this.entries.splice(at, 0, entry);
  }

  private evictOldest(): void {
    const old = this.entries[this.head]!;
    // Let the evicted entry go now: until the next compaction its slot would keep it (and its
    // response) alive, up to doubling the journal's memory.
    this.entries[this.head++] = undefined;
    this.bytes -= old.size;
    // Compact now and then rather than shifting the array on every eviction.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  get size(): number {
    return this.entries.length - this.head;
  }
  get approximateBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.entries = [];
    this.head = 0;
    this.bytes = 0;
  }

  /** Matching entries, newest first, and how many matched before the limit. */
  query(q: JournalQuery): { count: number; entries: JournalEntry[] } {
    const limit = q.limit ?? 200;
    const out: JournalEntry[] = [];
    let count = 0;
    for (let i = this.entries.length - 1; i >= this.head; i--) {
      const e = this.entries[i]!;
      if (q.since_id !== undefined && e.id <= q.since_id) break;
      if (!matches(e, q)) continue;
      count++;
      if (out.length < limit) out.push(e);
    }
    return { count, entries: out };
  }

  onRecord(listener: (entry: JournalEntry) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }
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
  if (q.problems !== undefined && e.problems.length > 0 !== q.problems) return false;
  return true;
}
