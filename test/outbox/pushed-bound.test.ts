// The messages whose push notifications the outbox remembers (to take them back on read) are
// bounded (50,000): past the bound the oldest noted goes first, skipping messages forgotten in
// between, and noting one more costs the same however many were noted and forgotten before
// (outbox.ts keeps that order beside the map, see `pushedOrder`).
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../src/domain/outbox/outbox.js';

const BOUND = 50_000;

describe('the remembered push notifications past their bound', () => {
  it('forget the oldest noted message, skipping those forgotten since', () => {
    const outbox = new Outbox();
    for (let id = 1; id <= BOUND; id++) outbox.notePushed(id, 7, 'direct_message');
    // 1..100 read meanwhile: the next two notes take out 101 and 102, not a forgotten one.
    for (let id = 1; id <= 100; id++) outbox.forgetPushed(id, 7);
    for (let id = BOUND + 1; id <= BOUND + 102; id++) outbox.notePushed(id, 7, 'direct_message');
    expect(outbox.pushedFor(101)).toBeUndefined();
    expect(outbox.pushedFor(102)).toBeUndefined();
    expect(outbox.pushedFor(103)?.get(7)).toBe('direct_message');
    expect(outbox.pushedFor(BOUND + 102)?.get(7)).toBe('direct_message');
  });

  it('notes in steady time once full, however many were noted before', () => {
    const outbox = new Outbox();
    let id = 0;
    const noteMany = (n: number) => {
      const started = performance.now();
      for (let i = 0; i < n; i++) outbox.notePushed(++id, 7, 'direct_message');
      return performance.now() - started;
    };
    noteMany(BOUND);
    // Each note past the bound forgets one. Taking a Map's first key for it walked past every
    // entry deleted before it: 200,000 more notes took seconds, where they now take tens of milliseconds.
    expect(noteMany(200_000)).toBeLessThan(1_000);
  });
});
