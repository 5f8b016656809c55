// The bound on service bot calls in flight that all worlds of a server share: a world waits for
// a slot while others hold them all, is woken when one is given back, and a woken world that has
// nothing left to run lets the next waiting world have the slot.
import { describe, expect, it } from 'vitest';
import { CallSlots } from '../../src/domain/bots/outgoing/calls.js';

describe('CallSlots', () => {
  it('gives at most `max` slots, and a slot given back to the first waiting world', () => {
    const slots = new CallSlots(2);
    const woken: string[] = [];
    expect(slots.take(() => woken.push('a'))).toBe(true);
    expect(slots.take(() => woken.push('a'))).toBe(true);
    const b = () => {
      woken.push('b');
      expect(slots.take(b)).toBe(true);
    };
    expect(slots.take(b)).toBe(false);
    const c = () => {
      woken.push('c');
      slots.take(c);
    };
    expect(slots.take(c)).toBe(false);
    slots.give();
    // b took the slot given back: c still waits.
    expect(woken).toEqual(['b']);
    slots.give();
    expect(woken).toEqual(['b', 'c']);
  });

  it('wakes the next world when the woken one takes nothing', () => {
    const slots = new CallSlots(1);
    expect(slots.take(() => {})).toBe(true);
    const woken: string[] = [];
    const idle = () => woken.push('idle');
    const busy = () => {
      woken.push('busy');
      slots.take(busy);
    };
    slots.take(idle);
    slots.take(busy);
    slots.give();
    expect(woken).toEqual(['idle', 'busy']);
    expect(slots.take(() => {})).toBe(false);
  });
});
