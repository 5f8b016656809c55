// The pooled random source hands out fresh bytes every time: never the same bytes twice (a path
// or a confirmation key guessed from another), whatever the sizes asked and across block refills.
import { describe, expect, it } from 'vitest';
import { randomBytes } from '../../src/random-pool.js';

describe('pooled random bytes', () => {
  it('gives the size asked, and never the same bytes twice across many block refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const size = [15, 19, 20, 32][i % 4];
      const bytes = randomBytes(size);
      expect(bytes.length).toBe(size);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(5000);
  });

  it('returns a copy: changing it changes nothing later calls give', () => {
    const first = randomBytes(19);
    first.fill(0);
    const next = randomBytes(19);
    expect(next.equals(Buffer.alloc(19))).toBe(false);
  });

  it('serves sizes larger than its block share straight from the system', () => {
    const big = randomBytes(8192);
    expect(big.length).toBe(8192);
    expect(new Set(big).size).toBeGreaterThan(200);
  });
});
