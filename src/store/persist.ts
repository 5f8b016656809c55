// Persistence of a world to a --data file without rewriting the whole file per request:
//   - every change is appended to a log beside the file (`<file>.log`, one JSON line per change),
//     a few milliseconds later and together with the changes made meanwhile (one write per burst);
//   - now and then (log too large, a reset, shutdown) the whole state is written as a snapshot
//     through lowdb (its writer puts a temporary file in place by renaming, so the snapshot is
//     always whole) and the log starts again;
//   - at start the snapshot is read and the log replayed; a torn last line (a crash mid-write)
//     is ignored.
// In durable mode the log is fsync'ed and a request is acknowledged only once its changes are
// in the log (group commit). Otherwise the window of acknowledged-but-unwritten changes is the
// append delay plus one write (a few ms).
// IDs are reserved ahead of use in a third file (`<file>.ids`, written at once, before the first
// ID of each block is handed out): the rows lost in that window must not give their IDs away again.
import { existsSync, readFileSync, openSync, closeSync, ftruncateSync, renameSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { idField, type Change, type IdLimits, type Store } from './store.js';
import type { State } from './state.js';
import { FixtureError, SNAPSHOT_SEQ_KEY } from './fixture.js';

export interface PersistOptions {
  durable?: boolean;
  /** Delay between a change and the append that carries it. */
  delayMs?: number;
  /** Compact (snapshot + empty log) once the log is larger than this. */
  compactBytes?: number;
}

const SEQ_KEY = SNAPSHOT_SEQ_KEY;

export const logFileOf = (file: string) => `${file}.log`;
export const idsFileOf = (file: string) => `${file}.ids`;

/** The reserved-ID limits of the last run (none without the file), checked like a data file. */
function readIdLimits(file: string): IdLimits {
  if (!existsSync(file)) return {};
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new FixtureError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new FixtureError(`${file}: the top level must be a JSON object`);
  for (const [name, value] of Object.entries(data)) {
    if (!(name in idField)) throw new FixtureError(`${file}: /${name}: not an ID counter`);
    if (!Number.isSafeInteger(value) || (value as number) < 0)
      throw new FixtureError(`${file}: /${name}: must be a non-negative integer`);
  }
  return data as IdLimits;
}

/** Reads a snapshot's log sequence number and removes it from the state. */
export function takeSnapshotSeq(state: State): number {
  const record = state as unknown as Record<string, unknown>;
  const seq = typeof record[SEQ_KEY] === 'number' ? (record[SEQ_KEY] as number) : 0;
  delete record[SEQ_KEY];
  return seq;
}

export class Persister {
  private readonly db: Low<Record<string, unknown>>;
  private readonly logFile: string;
  private readonly idsFile: string;
  /** What the ids file says: no counter has handed out an ID at or above its limit. */
  private readonly idLimits: IdLimits;
  private handle: FileHandle | null = null;
  private pending: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<void> | null = null;
  private seq: number;
  private logBytes = 0;
  private needsSnapshot = false;
  private writtenVersion: number;
  private waiters: Array<{ version: number; resolve: () => void; reject: (e: Error) => void }> = [];
  private readonly unsubscribe: () => void;
  readonly durable: boolean;
  private readonly delayMs: number;
  private readonly compactBytes: number;

  /** `snapshotSeq`: the log sequence the loaded snapshot already contains. */
  constructor(
    readonly file: string,
    private readonly store: Store,
    snapshotSeq: number,
    options: PersistOptions = {},
  ) {
    this.durable = !!options.durable;
    this.delayMs = options.delayMs ?? 5;
    this.compactBytes = options.compactBytes ?? 32 * 1024 * 1024;
    this.logFile = logFileOf(file);
    this.db = new Low(
      new DataFile<Record<string, unknown>>(file, { parse: JSON.parse, stringify: (d) => JSON.stringify(d) }),
      {},
    );
    this.seq = snapshotSeq;
    this.replayLog(snapshotSeq);
    this.idsFile = idsFileOf(file);
    this.idLimits = readIdLimits(this.idsFile);
    store.reserveIds({ ...this.idLimits }, (name, limit) => {
      // After a reset the counters restart lower, inside what the file already reserves.
      if (limit <= (this.idLimits[name] ?? 0)) return;
      this.idLimits[name] = limit;
      this.writeIdLimits();
    });
    this.writtenVersion = store.version;
    // Start every run from a fresh snapshot: the replayed log (or the fixture) becomes the file.
    this.needsSnapshot = true;
    this.unsubscribe = store.onChange((change) => this.record(change));
    this.schedule(0);
  }

  /** Applies the log's changes newer than the snapshot; returns how many. */
  private replayLog(snapshotSeq: number): number {
    if (!existsSync(this.logFile)) return 0;
    const lines = readFileSync(this.logFile, 'utf8').split('\n');
    let applied = 0;
    for (const line of lines) {
      if (!line) continue;
      let entry: { q: number; ch: Change };
      try {
        entry = JSON.parse(line);
      } catch {
        break;
      } // a torn tail: written up to here
      if (entry.q <= snapshotSeq) continue;
      this.store.replay(entry.ch);
      this.seq = entry.q;
      applied++;
    }
    return applied;
  }

  private record(change: Change): void {
    if (change.t === 'load') {
      this.needsSnapshot = true;
      this.pending = [];
    } else {
      this.pending.push(JSON.stringify({ q: ++this.seq, ch: change }));
    }
    this.schedule(this.delayMs);
  }

  private schedule(delay: number): void {
    if (this.timer || this.busy) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flushNow();
    }, delay);
  }

  private async flushNow(): Promise<void> {
    if (this.busy) return this.busy;
    const version = this.store.version;
    this.busy = (async () => {
      if (this.needsSnapshot || this.logBytes > this.compactBytes) await this.snapshot();
      else await this.append();
      this.writtenVersion = version;
      this.waiters = this.waiters.filter((w) => (w.version <= version ? (w.resolve(), false) : true));
    })()
      .catch((err: Error) => {
        for (const w of this.waiters) w.reject(err);
        this.waiters = [];
        console.error(`teamchat-mock: writing ${this.file} failed: ${err.message}`);
      })
      .finally(() => {
        this.busy = null;
        if (this.pending.length || this.needsSnapshot) this.schedule(this.delayMs);
      });
    return this.busy;
  }

  private async append(): Promise<void> {
    if (!this.pending.length) return;
    const text = this.pending.join('\n') + '\n';
    this.pending = [];
    this.handle ??= await open(this.logFile, 'a');
    await this.handle.write(text);
    if (this.durable) await this.handle.datasync();
    this.logBytes += Buffer.byteLength(text);
  }

  /** Writes the whole state (with the log position it contains) and empties the log. */
  private async snapshot(): Promise<void> {
    this.needsSnapshot = false;
    this.pending = [];
    this.db.data = { ...this.store.state, [SEQ_KEY]: this.seq };
    await this.db.write();
    // The snapshot holds everything up to this.seq; changes made while it was written are in
    // `pending` with larger numbers and go to the emptied log next.
    await this.handle?.close();
    this.handle = null;
    const fd = openSync(this.logFile, 'a');
    ftruncateSync(fd, 0);
    closeSync(fd);
    this.logBytes = 0;
  }

  /**
   * Synchronous, so that the limit is in the file before the ID that needed it is answered;
   * renamed into place, so that a kill never leaves half a file. Not fsync'ed: a killed process
   * loses nothing the kernel has, and durable mode has every acknowledged row in its log anyway.
   */
  private writeIdLimits(): void {
    const tmp = `${this.idsFile}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.idLimits));
    renameSync(tmp, this.idsFile);
  }

  /** Resolves once every change made so far is written (and synced, in durable mode). */
  flushed(): Promise<void> {
    const version = this.store.version;
    if (version <= this.writtenVersion && !this.pending.length && !this.needsSnapshot) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ version, resolve, reject });
      this.schedule(this.durable ? 0 : this.delayMs);
    });
  }

  /** Shutdown: write what is pending and leave a fresh snapshot. */
  async close(): Promise<void> {
    this.unsubscribe();
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.busy) await this.busy;
    this.needsSnapshot = true;
    await this.flushNow();
    await this.handle?.close();
    this.handle = null;
    // Everything is in the snapshot now: the next run continues where this one stopped (no gap),
    // still above the IDs of rows deleted since (which the snapshot no longer shows).
    if (this.writtenVersion !== this.store.version || this.pending.length) return; // the snapshot failed: keep the margin
    for (const name of Object.keys(this.idLimits) as Array<keyof IdLimits>)
      this.idLimits[name] = this.store.peekId(name);
    this.writeIdLimits();
  }
}
