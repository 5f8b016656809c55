// The rate limiter's count of a user's calls in the last minute is found by halving while the
// times it keeps are in order, and by the walk back from the newest otherwise (the mock clock set
// back): both must count what the walk counts, for any history.
import { describe, expect, it } from 'vitest';
import { CallLog } from '../../src/pipeline/rate-limit.js';

/** The count as the walk makes it: the newest times, back to the first older than a minute. */
function walked(times: number[], now: number): number {
  let recent = 0;
  for (let i = times.length - 1; i >= 0 && times[i] > now - 60_000; i--) recent++;
  return recent;
}

describe('the calls counted in the last minute', () => {
  it('are those the walk back counts, in order or not, across the 200 kept', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 40; run++) {
      const log = new CallLog();
      const kept: number[] = [];
      let now = 1_800_000_000_000;
      for (let i = 0; i < 600; i++) {
        // Mostly forward in small steps; now and then a jump forward, or the clock set back.
        const r = random();
        now +=
          r < 0.05
            ? -Math.floor(random() * 120_000)
            : r < 0.1
              ? Math.floor(random() * 90_000)
              : Math.floor(random() * 700);
        log.record(now);
        kept.push(now);
        if (kept.length > 200) kept.shift();
        const at = now + Math.floor(random() * 61_000) - 1_000;
        expect(log.state(at).remaining).toBe(Math.max(200 - walked(kept, at), 0));
      }
    }
  });
});
