// Keys in the order they arrived, beside a set or map that says which are still live: the oldest
// live key is found by skipping the dead ones at the front, and the dead ones are dropped once
// they outnumber the live ones. Not a Map's own first key: V8 keeps a Map's deleted entries until
// it rebuilds the table, and finding the first live key walks past all of them (9-34 µs a call
// at 50,000 entries used as a queue).
export class ArrivalOrder<K> {
  private keys: K[] = [];
  private head = 0;

  constructor(private readonly isLive: (key: K) => boolean) {}

  /** Adds a key; `liveCount` (how many are live now) bounds the dead ones kept. */
  push(key: K, liveCount: number): void {
    this.keys.push(key);
    if (this.keys.length - this.head > 2 * liveCount + 64) this.compact();
  }

  /** The oldest live key (consumed: the next call looks past it), or undefined when none is. */
  takeOldest(): K | undefined {
    while (this.head < this.keys.length) {
      const key = this.keys[this.head++];
      if (this.isLive(key)) {
        if (this.head > 1024 && this.head * 2 > this.keys.length) this.compact();
        return key;
      }
    }
    return undefined;
  }

  clear(): void {
    this.keys = [];
    this.head = 0;
  }

  /** The live keys only, each once (at its first place). */
  private compact(): void {
    const seen = new Set<K>();
    const live: K[] = [];
    for (let i = this.head; i < this.keys.length; i++) {
      const key = this.keys[i];
      if (this.isLive(key) && !seen.has(key)) {
        seen.add(key);
        live.push(key);
      }
    }
    this.keys = live;
    this.head = 0;
  }
}
