// The idle sweep skips its scan while no queue can have expired yet (src/domain/events/hub.ts):
// the bound it keeps must never make a queue outlive its idle timeout.
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../src/domain/events/hub.js';
import { queueOptions } from '../helpers/queue-options.js';

const options = (now: number, idleTimeoutSecs: number) => queueOptions({ idleTimeoutSecs, now });

describe('the idle sweep', () => {
  it('a queue registered after a sweep with a shorter timeout still expires on time', () => {
    const hub = new EventHub();
    const long = hub.register(options(1000, 600));
    hub.expireIdle(1001);
    const short = hub.register(options(1002, 10));
    hub.expireIdle(1011);
    expect(hub.queuesOf(4)).toEqual([long, short]);
    hub.expireIdle(1012);
    expect(hub.queuesOf(4)).toEqual([long]);
    hub.expireIdle(1600);
    expect(hub.queuesOf(4)).toEqual([]);
  });

  it('a poll moves the expiry later; a clock moved back is swept again', () => {
    const hub = new EventHub();
    const q = hub.register(options(1000, 60));
    hub.expireIdle(1030);
    q.touch(1050);
    hub.expireIdle(1060);
    expect(hub.queuesOf(4)).toEqual([q]);
    hub.expireIdle(1110);
    expect(hub.queuesOf(4)).toEqual([]);
    // Back in time: a queue polled at an earlier time than the last sweep expires from there.
    const r = hub.register(options(2000, 60));
    hub.expireIdle(2001);
    r.touch(1500);
    hub.expireIdle(1560);
    expect(hub.queuesOf(4)).toEqual([]);
  });
});
