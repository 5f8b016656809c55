// The outbox's schedule is bounded (5000 pending sendings): past the bound, scheduling one more
// gives up the oldest still pending, in the order they were scheduled, whatever was cancelled
// or sent in between (outbox.ts keeps that order beside the pending set, see `order`).
import { describe, expect, it } from 'vitest';
import { Outbox, type OutboxContent } from '../../src/domain/outbox/outbox.js';

const BOUND = 5000;
const email = (n: number): OutboxContent => ({
  kind: 'email',
  template: 'invitation_reminder',
  to: `user${n}@example.com`,
  user_id: null,
  subject: `reminder ${n}`,
  text: 'text',
  links: {},
});

/** Every pending sending, sent now (far in the future), as the numbers of their addresses. */
function sendAll(outbox: Outbox): number[] {
  outbox.releaseDue(Number.MAX_SAFE_INTEGER);
  return outbox
    .query({ limit: 100_000 })
    .items.map((i) => Number((i as { to: string }).to.slice(4, -'@example.com'.length)))
    .sort((a, b) => a - b);
}

describe('the schedule past its bound', () => {
  it('gives up the oldest pending sending, skipping those cancelled or sent since', () => {
    const outbox = new Outbox();
    // 0..4999 scheduled; then 0..99 cancelled by tag and 100..149 sent (due early).
    for (let n = 0; n < BOUND; n++) outbox.schedule(email(n), n < 150 && n >= 100 ? 1 : 1_000_000 + n, `tag${n}`);
    for (let n = 0; n < 100; n++) outbox.cancel(`tag${n}`);
    outbox.releaseDue(1);
    // 4850 pending: 150 more fit, then each new one gives up the oldest pending (150, 151, ...).
    for (let n = BOUND; n < BOUND + 150 + 3; n++) outbox.schedule(email(n), 1_000_000 + n, `tag${n}`);
    outbox.clear();
    const pending = sendAll(outbox);
    expect(pending.length).toBe(BOUND);
    expect(pending.slice(0, 2)).toEqual([153, 154]);
    expect(pending[pending.length - 1]).toBe(BOUND + 152);
  });

  it('keeps the order through many cancellations (rescheduling the same tag again and again)', () => {
    const outbox = new Outbox();
    for (let n = 0; n < BOUND; n++) outbox.schedule(email(n), 1_000_000 + n, `tag${n}`);
    // A resent invitation replaces its reminder: 20,000 times for one tag, the bound reached.
    for (let i = 0; i < 20_000; i++) outbox.schedule(email(BOUND + i), 2_000_000 + i, 'resent');
    outbox.schedule(email(99_999), 3_000_000, 'last');
    outbox.clear();
    const pending = sendAll(outbox);
    expect(pending.length).toBe(BOUND);
    // The two oldest went (the first when 'resent' was first added past the bound, then the next).
    expect(pending.slice(0, 2)).toEqual([2, 3]);
    expect(pending).toContain(BOUND + 19_999);
    expect(pending).toContain(99_999);
  });
});
