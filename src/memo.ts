// A bounded memo for values that are pure functions of a key which clients send again and again
// (credentials, addresses, message texts). Past `limit` keys it starts over: cheaper than keeping
// an LRU order, and the keys that matter come back at once.

export class Memo<K, V> {
  private readonly values = new Map<K, V>();

  constructor(private readonly limit: number) {}

  /** The value for `key`, computed once while kept. A `compute` that throws keeps nothing. */
  get(key: K, compute: (key: K) => V): V {
    let value = this.values.get(key);
    if (value === undefined && !this.values.has(key)) {
      value = compute(key);
      if (this.values.size >= this.limit) this.values.clear();
      this.values.set(key, value);
    }
    return value as V;
  }
}
