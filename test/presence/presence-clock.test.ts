// Presence over the mock clock: a ping makes a user active, the thresholds pass them to idle and
// offline in what others read (GET /realm/presence, the ping's answer, GET /users/{id}/presence),
// a new ping brings them back, and others' queues get a `presence` event when they come back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
  t.server.clock.freeze();
  t.server.clock.set(T0 * 1000);
});
afterEach(async () => {
  await t.close();
});

/** Three days after the fixture's presence data: everyone in it looks offline. */
const T0 = 1795500000;
const advance = (s: number) => t.server.clock.advance(s * 1000);

/** What a client shows from the modern form: active, idle or offline at server_timestamp. */
function shown(
  p: { active_timestamp: number; idle_timestamp: number },
  serverTimestamp: number,
  offlineAfter: number,
): string {
  if (serverTimestamp - p.active_timestamp <= offlineAfter) return 'active';
  if (serverTimestamp - p.idle_timestamp <= offlineAfter) return 'idle';
  return 'offline';
}

describe('presence over the mock clock', () => {
  it('active after a ping, idle and offline after the thresholds, active again after a new ping', async () => {
    const reg = await t.as('othello').post('/register', { fetch_event_types: ['realm'] });
    const offlineAfter: number = reg.body.server_presence_offline_threshold_seconds;
    expect(offlineAfter).toBe(200);
    const queue = await registerQueue(t, 'othello', ['presence'], { idle_queue_timeout: 86400 });

    // Hamlet's client reports active: others are told at once, since he was offline.
    let r = await t.as('hamlet').post('/users/me/presence', { status: 'active', ping_only: true });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const hamlet = t.user('hamlet');
    expect(await eventsOf(t, 'othello', queue)).toEqual([
      {
        type: 'presence',
        id: 0,
        user_id: hamlet.user_id,
        email: 'hamlet@zulip.com',
        server_timestamp: T0,
        presence: { website: { client: 'website', status: 'active', timestamp: T0, pushable: false } },
      },
    ]);
    r = await t.as('othello').get('/realm/presence');
    expect(r.body.presences['hamlet@zulip.com']).toEqual({
      website: { client: 'website', status: 'active', timestamp: T0, pushable: false },
      aggregated: { client: 'website', status: 'active', timestamp: T0 },
    });

    // His client keeps pinging, idle now: the connection time moves on, the activity does not.
    advance(120);
    await t.as('hamlet').post('/users/me/presence', { status: 'idle', ping_only: true });
    advance(120);
    await t.as('hamlet').post('/users/me/presence', { status: 'idle', ping_only: true });
    r = await t.as('othello').post('/users/me/presence', { status: 'active', last_update_id: -1 });
    const mine = r.body.presences[String(hamlet.user_id)];
    expect(mine).toEqual({ active_timestamp: T0, idle_timestamp: T0 + 240 });
    expect(shown(mine, r.body.server_timestamp, offlineAfter)).toBe('idle');
    r = await t.as('othello').get('/realm/presence');
    expect(r.body.presences['hamlet@zulip.com'].aggregated).toEqual({
      client: 'website',
      status: 'idle',
      timestamp: T0 + 240,
    });
    // Both forms from feature level 497 (the newest is the default).
    r = await t.as('othello').get(`/users/${hamlet.user_id}/presence`);
    expect(r.body.presence).toEqual({
      active_timestamp: T0,
      idle_timestamp: T0 + 240,
      website: { status: 'idle', timestamp: T0 + 240 },
      aggregated: { status: 'idle', timestamp: T0 + 240 },
    });
    expect(r.body.server_timestamp).toBe(T0 + 240);

    // He stops pinging: past the offline threshold he is offline to everyone.
    advance(offlineAfter + 1);
    r = await t.as('othello').post('/users/me/presence', { status: 'active', last_update_id: -1 });
    expect(shown(r.body.presences[String(hamlet.user_id)], r.body.server_timestamp, offlineAfter)).toBe('offline');
    r = await t.as('othello').get('/users/hamlet@zulip.com/presence');
    expect(r.body.presence.aggregated).toEqual({ status: 'offline', timestamp: T0 + 240 });
    // Idle pings do not tell anyone: only coming back active does (Othello's own return aside).
    const aboutHamlet = async () => (await eventsOf(t, 'othello', queue)).filter((e) => e.user_id === hamlet.user_id);
    expect(await aboutHamlet()).toHaveLength(1);

    // A new active ping: active again, and another event.
    const back = T0 + 240 + offlineAfter + 1;
    r = await t.as('hamlet').post('/users/me/presence', { status: 'active', ping_only: true });
    const events = await aboutHamlet();
    expect(events).toHaveLength(2);
    expect(events[1].presence).toEqual({
      website: { client: 'website', status: 'active', timestamp: back, pushable: false },
    });
    r = await t.as('othello').post('/users/me/presence', { status: 'active', last_update_id: -1 });
    expect(shown(r.body.presences[String(hamlet.user_id)], r.body.server_timestamp, offlineAfter)).toBe('active');
    r = await t.as('othello').get('/realm/presence');
    expect(r.body.presences['hamlet@zulip.com'].aggregated).toEqual({
      client: 'website',
      status: 'active',
      timestamp: back,
    });
  });
});
