// AnswerCache on its own: what it keeps, for how long, and what it refuses to hold.
import { describe, expect, it } from 'vitest';
import { AnswerCache } from '../../src/pipeline/answer-cache.js';
import { Store } from '../../src/store/store.js';
import { defaultFixturePath, readStateFile } from '../../src/store/fixture.js';

const answer = (size: number) => ({ body: { result: 'success' }, bytes: Buffer.alloc(size) });

describe('AnswerCache', () => {
  it('keeps an answer for its state version and second only', () => {
    const store = new Store(readStateFile(defaultFixturePath()));
    const cache = new AnswerCache();
    expect(cache.get(store, 100, 'k')).toBeUndefined();
    const a = answer(10);
    cache.put(store, store.version, 100, 'k', a);
    expect(cache.get(store, 100, 'k')).toBe(a);
    expect(cache.get(store, 101, 'k')).toBeUndefined();
    cache.put(store, store.version, 101, 'k', a);
    store.updateRealm({ name: 'Changed' });
    expect(cache.get(store, 101, 'k')).toBeUndefined();
    // An answer made before a change is not kept after it.
    const before = store.version;
    cache.get(store, 101, 'x');
    store.updateRealm({ name: 'Changed again' });
    cache.put(store, before, 101, 'x', a);
    expect(cache.get(store, 101, 'x')).toBeUndefined();
  });

  it('does not keep answers past 256 KB, nor more than 8 MB in all', () => {
    const store = new Store(readStateFile(defaultFixturePath()));
    const cache = new AnswerCache();
    cache.get(store, 1, '');
    cache.put(store, store.version, 1, 'big', answer(300 * 1024));
    expect(cache.get(store, 1, 'big')).toBeUndefined();
    for (let i = 0; i < 40; i++) cache.put(store, store.version, 1, `k${i}`, answer(250 * 1024));
    // 40 × 250 KB is past the budget: the cache started over once on the way.
    expect(cache.get(store, 1, 'k0')).toBeUndefined();
    expect(cache.get(store, 1, 'k39')).toBeDefined();
  });
});
