// An indexed view over one array of the state. The array stays the persisted form (lowdb
// serialises it as is); the maps make every lookup by key O(1). Every change goes through
// insert/update/remove so that indexes stay right and the store can log the change.

export type Key = string | number;

export type RowChange =
  { t: 'insert'; row: object } | { t: 'update'; key: Key; patch: object } | { t: 'remove'; key: Key };

export interface CollectionOptions<T> {
  key: (row: T) => Key;
  /** Extra unique indexes, e.g. users by lower-cased email. */
  unique?: Record<string, (row: T) => Key>;
  /** Non-unique indexes: the rows sharing a derived key (null: not indexed), e.g. messages by topic. */
  groups?: Record<string, (row: T) => Key | null>;
  /**
   * Non-unique indexes in which a row may sit under several keys (distinct ones), e.g. messages
   * under each user who received them. A group lists its rows in the order all() does, always.
   */
  multiGroups?: Record<string, (row: T) => readonly Key[]>;
  /**
   * The fields the multi-group keys are read from: an update that changes none of them leaves the
   * multi-groups alone without working their keys out (a reaction on a message of a large channel).
   * A list holds for every multi-group; a record names each group's own fields (a group it does
   * not name is worked out again on every update).
   */
  multiGroupFields?: ReadonlyArray<keyof T> | Readonly<Record<string, ReadonlyArray<keyof T>>>;
}

const NO_ROWS: ReadonlySet<never> = new Set();
const NO_LIST: readonly never[] = [];

export class Collection<T extends object> {
  private readonly byKey = new Map<Key, T>();
  private readonly indexes = new Map<string, Map<Key, T>>();
  private readonly groupIndexes = new Map<string, Map<Key, Set<T>>>();
  /** The index functions with their maps, listed once (every insert walks them). */
  private readonly uniqueFns: Array<[(row: T) => Key, Map<Key, T>]> = [];
  private readonly groupFns: Array<[(row: T) => Key | null, Map<Key, Set<T>>]> = [];
  private readonly multiIndexes = new Map<string, Map<Key, T[]>>();
  /** Each multi-group's key function, its map, and the fields its keys are read from (null: any). */
  private readonly multiFns: Array<[(row: T) => readonly Key[], Map<Key, T[]>, ReadonlyArray<keyof T> | null]> = [];
  /**
   * Each row's place in all(): rows are only ever appended (removals keep the others' order), so
   * a counter given out on indexing orders rows as all() does, and a multi-group's list can be
   * kept in that order by binary search when a row joins it late.
   */
  private readonly ordinals = new WeakMap<T, number>();
  private nextOrdinal = 0;
  /**
   * Multi-group indexes are built on their first read, then kept: building them for every row
   * of a large state cost a quarter of its start-up (100,000 messages, each under each of its
   * recipients), and a run that never registers never reads them.
   */
  private multiBuilt = false;
  /** How many times each row was updated (rows are changed in place, keeping their identity). */
  private readonly updates = new WeakMap<T, number>();

  constructor(
    private rows: T[],
    private readonly options: CollectionOptions<T>,
    private readonly changed: (change: RowChange) => void,
  ) {
    for (const [name, fn] of Object.entries(options.unique ?? {})) {
      const map = new Map<Key, T>();
      this.indexes.set(name, map);
      this.uniqueFns.push([fn, map]);
    }
    for (const [name, fn] of Object.entries(options.groups ?? {})) {
      const map = new Map<Key, Set<T>>();
      this.groupIndexes.set(name, map);
      this.groupFns.push([fn, map]);
    }
    const fields = options.multiGroupFields;
    for (const [name, fn] of Object.entries(options.multiGroups ?? {})) {
      const map = new Map<Key, T[]>();
      this.multiIndexes.set(name, map);
      this.multiFns.push([fn, map, !fields ? null : Array.isArray(fields) ? fields : ((fields as any)[name] ?? null)]);
    }
    for (const row of rows) this.index(row);
  }

  /** Where `row` goes in `list` (kept in all() order): the index of the first row after it. */
  private placeIn(list: readonly T[], row: T): number {
    const ordinal = this.ordinals.get(row)!;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ordinals.get(list[mid])! < ordinal) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private joinMulti(index: Map<Key, T[]>, value: Key, row: T): void {
    const list = index.get(value);
    if (!list) index.set(value, [row]);
    else if (this.ordinals.get(list[list.length - 1])! < this.ordinals.get(row)!) list.push(row);
    else list.splice(this.placeIn(list, row), 0, row);
  }

  private leaveMulti(index: Map<Key, T[]>, value: Key, row: T): void {
    const list = index.get(value);
    if (!list) return;
    const i = this.placeIn(list, row);
    if (list[i] !== row) return;
    if (list.length === 1) index.delete(value);
    else list.splice(i, 1);
  }

  private index(row: T): void {
    this.byKey.set(this.options.key(row), row);
    for (const [fn, map] of this.uniqueFns) map.set(fn(row), row);
    for (const [fn, index] of this.groupFns) {
      const value = fn(row);
      if (value === null) continue;
      const rows = index.get(value);
      if (rows) rows.add(row);
      else index.set(value, new Set([row]));
    }
    if (!this.multiBuilt) return;
    this.ordinals.set(row, this.nextOrdinal++);
    for (const [fn, index] of this.multiFns) for (const value of fn(row)) this.joinMulti(index, value, row);
  }

  private unindex(row: T, multi = true): void {
    this.byKey.delete(this.options.key(row));
    for (const [fn, map] of this.uniqueFns) map.delete(fn(row));
    for (const [fn, index] of this.groupFns) {
      const value = fn(row);
      const rows = value === null ? undefined : index.get(value);
      if (rows?.delete(row) && !rows.size) index.delete(value!);
    }
    if (multi && this.multiBuilt)
      for (const [fn, index] of this.multiFns) for (const value of fn(row)) this.leaveMulti(index, value, row);
  }

  private leaveMultiAll(removed: readonly T[]): void {
    const gone = new Set(removed);
    for (const [fn, index] of this.multiFns) {
      const touched = new Set<Key>();
      for (const row of removed) for (const value of fn(row)) touched.add(value);
      for (const value of touched) {
        const left = index.get(value)?.filter((row) => !gone.has(row));
        if (left?.length) index.set(value, left);
        else index.delete(value);
      }
    }
  }

  keyOf(row: T): Key {
    return this.options.key(row);
  }
  get size(): number {
    return this.rows.length;
  }
  get(key: Key): T | undefined {
    return this.byKey.get(key);
  }
  has(key: Key): boolean {
    return this.byKey.has(key);
  }
  /** Lookup by a unique index declared in the options. */
  by(index: string, value: Key): T | undefined {
    return this.indexes.get(index)?.get(value);
  }
  /** The rows sharing `value` in a group index, in insertion order (a live view: do not change it). */
  group(index: string, value: Key): ReadonlySet<T> {
    return this.groupIndexes.get(index)?.get(value) ?? NO_ROWS;
  }
  /** The rows listed under `value` in a multi-group index, in all() order (a live view: do not change it). */
  multiGroup(index: string, value: Key): readonly T[] {
    if (!this.multiBuilt) this.buildMulti();
    return this.multiIndexes.get(index)?.get(value) ?? NO_LIST;
  }

  /** The keys under which a multi-group index lists rows (each with at least one row). */
  multiGroupKeys(index: string): Iterable<Key> {
    if (!this.multiBuilt) this.buildMulti();
    return this.multiIndexes.get(index)?.keys() ?? NO_LIST;
  }

  private static touches<T>(fields: ReadonlyArray<keyof T> | null, patch: Partial<T>): boolean {
    return !fields || fields.some((f) => Object.hasOwn(patch, f));
  }

  /**
   * Every row into the multi-group indexes, in all() order: each list then grows by appending,
   * without comparing places (what joinMulti does for a row that joins later).
   */
  private buildMulti(): void {
    this.multiBuilt = true;
    for (const row of this.rows) {
      this.ordinals.set(row, this.nextOrdinal++);
      for (const [fn, index] of this.multiFns)
        for (const value of fn(row)) {
          const list = index.get(value);
          if (list) list.push(row);
          else index.set(value, [row]);
        }
    }
  }
  /**
   * A number that changes whenever `row` is updated: what a value derived from one row (and kept
   * with it) is checked against. Rows change only through update(), as the persister needs too.
   */
  updatesOf(row: T): number {
    return this.updates.get(row) ?? 0;
  }
  all(): readonly T[] {
    return this.rows;
  }
  filter(pred: (row: T) => boolean): T[] {
    return this.rows.filter(pred);
  }
  find(pred: (row: T) => boolean): T | undefined {
    return this.rows.find(pred);
  }

  insert(row: T): T {
    if (this.byKey.has(this.options.key(row))) throw new Error(`duplicate key ${this.options.key(row)}`);
    this.rows.push(row);
    this.index(row);
    this.changed({ t: 'insert', row });
    return row;
  }

  /** Applies `patch` to the stored row (re-indexing it) and returns the row. */
  update(row: T, patch: Partial<T>): T {
    const key = this.options.key(row);
    this.patch(row, patch);
    this.changed({ t: 'update', key, patch });
    return row;
  }

  /**
   * Changes `row` in place and moves it only in the indexes whose key for it changed: a row stays
   * where it was in its groups, so that a group lists its rows in the order all() does (a
   * subscription changed in its colour stays among its channel's subscribers where it was).
   */
  private patch(row: T, patch: Partial<T>): void {
    const key = this.options.key(row);
    const uniqueBefore = this.uniqueFns.map(([fn]) => fn(row));
    const groupsBefore = this.groupFns.map(([fn]) => fn(row));
    // Most updates (a reaction, an edit) touch no multi-group's fields: nothing is worked out then.
    const multiBefore =
      this.multiBuilt && this.multiFns.some(([, , fields]) => Collection.touches(fields, patch))
        ? this.multiFns.map(([fn, , fields]) => (Collection.touches(fields, patch) ? fn(row) : null))
        : null;
    Object.assign(row, patch);
    this.updates.set(row, this.updatesOf(row) + 1);
    const newKey = this.options.key(row);
    if (newKey !== key) {
      this.byKey.delete(key);
      this.byKey.set(newKey, row);
    }
    this.uniqueFns.forEach(([fn, map], i) => {
      const after = fn(row);
      if (after === uniqueBefore[i]) return;
      if (map.get(uniqueBefore[i]) === row) map.delete(uniqueBefore[i]);
      map.set(after, row);
    });
    this.groupFns.forEach(([fn, index], i) => {
      const before = groupsBefore[i];
      const after = fn(row);
      if (after === before) return;
      const rows = before === null ? undefined : index.get(before);
      if (rows?.delete(row) && !rows.size) index.delete(before!);
      if (after === null) return;
      const into = index.get(after);
      if (into) into.add(row);
      else index.set(after, new Set([row]));
    });
    if (multiBefore)
      this.multiFns.forEach(([fn, index], i) => {
        const before = multiBefore[i];
        if (!before) return;
        const after = fn(row);
        if (sameKeys(before, after)) return;
        const kept = new Set(after);
        for (const value of before) if (!kept.delete(value)) this.leaveMulti(index, value, row);
        for (const value of kept) this.joinMulti(index, value, row);
      });
  }

  remove(row: T): void {
    const i = this.rows.indexOf(row);
    if (i < 0) return;
    this.rows.splice(i, 1);
    this.unindex(row);
    this.changed({ t: 'remove', key: this.options.key(row) });
  }

  /** Removes every row matching `pred` in one pass; returns the removed rows. */
  removeWhere(pred: (row: T) => boolean): T[] {
    const removed: T[] = [];
    const kept: T[] = [];
    for (const row of this.rows) (pred(row) ? removed : kept).push(row);
    if (!removed.length) return removed;
    this.rows.length = 0;
    for (const row of kept) this.rows.push(row);
    // Past a few rows, each multi-group the removed rows sat in is filtered once rather than
    // spliced once per row (deleting a topic of thousands of messages).
    const batch = removed.length > 8 && this.multiBuilt && this.multiFns.length > 0;
    if (batch) this.leaveMultiAll(removed);
    for (const row of removed) {
      this.unindex(row, !batch);
      this.changed({ t: 'remove', key: this.options.key(row) });
    }
    return removed;
  }

  /** Re-applies a logged change (replay after a restart); false when it no longer applies. */
  replay(change: RowChange): boolean {
    if (change.t === 'insert') {
      const row = change.row as T;
      if (this.byKey.has(this.options.key(row))) return false;
      this.rows.push(row);
      this.index(row);
      return true;
    }
    const row = this.byKey.get(change.key);
    if (!row) return false;
    if (change.t === 'update') {
      this.patch(row, change.patch as Partial<T>);
    } else {
      this.rows.splice(this.rows.indexOf(row), 1);
      this.unindex(row);
    }
    return true;
  }
}

/** Whether two key lists hold the same keys (in any order): most updates leave a row's keys alone. */
function sameKeys(a: readonly Key[], b: readonly Key[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return sameKeysUnordered(a, b);
  return true;
}

function sameKeysUnordered(a: readonly Key[], b: readonly Key[]): boolean {
  const inA = new Set(a);
  return b.every((k) => inA.has(k));
}
