// Persists the store to a --data file through lowdb. Writes are coalesced: a change schedules one
// write a short moment later, and changes made meanwhile ride along, so a burst of requests costs
// one serialisation, not one per request. lowdb's writer (steno) writes a temporary file and renames
// it into place, so the file is always whole. In durable mode a request is acknowledged only after
// the write that contains it has finished (group commit).
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import type { Store } from './store.js';
import type { State } from './state.js';

export interface PersistOptions {
  /** Delay between a change and the write that carries it (the durability window). */
  delayMs?: number;
}

export class Persister {
  private readonly db: Low<State>;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private writtenVersion: number;
  private waiters: Array<{ version: number; resolve: () => void; reject: (e: Error) => void }> = [];
  private readonly unsubscribe: () => void;
  readonly delayMs: number;

  constructor(readonly file: string, private readonly store: Store, options: PersistOptions = {}) {
    this.delayMs = options.delayMs ?? 50;
    this.db = new Low<State>(new DataFile<State>(file, { parse: JSON.parse, stringify: (d) => JSON.stringify(d) }), store.state);
    this.writtenVersion = -1;
    this.unsubscribe = store.onChange(() => this.schedule());
  }

  private schedule(): void {
    if (this.timer || this.writing) return;
    this.timer = setTimeout(() => { this.timer = null; void this.writeNow(); }, this.delayMs);
  }

  private async writeNow(): Promise<void> {
    if (this.writing) return this.writing;
    const version = this.store.version;
    this.db.data = this.store.state;
    this.writing = this.db.write().then(
      () => {
        this.writtenVersion = version;
        this.waiters = this.waiters.filter((w) => (w.version <= version ? (w.resolve(), false) : true));
      },
      (err: Error) => {
        for (const w of this.waiters) w.reject(err);
        this.waiters = [];
        console.error(`teamchat-mock: writing ${this.file} failed: ${err.message}`);
      },
    ).finally(() => {
      this.writing = null;
      if (this.store.version !== this.writtenVersion) this.schedule();
    });
    return this.writing;
  }

  /** Resolves once everything changed so far is on disk. */
  flushed(): Promise<void> {
    const version = this.store.version;
    if (version <= this.writtenVersion) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ version, resolve, reject });
      this.schedule();
    });
  }

  /** Writes what is pending at once (shutdown). */
  async close(): Promise<void> {
    this.unsubscribe();
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    if (this.writing) await this.writing;
    if (this.store.version !== this.writtenVersion) await this.writeNow();
  }
}
