// POST /users/me/presence, GET /users/{user_id_or_email}/presence and GET /realm/presence: the
// forms the parameters ask for, incremental fetching, invisible mode, the errors, and the form
// of `presence` events each queue gets.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { error } from '../helpers/errors.js';

let t: TestServer;
const T0 = 1795500000;
beforeEach(async () => {
  t = await startTestServer();
  t.server.clock.freeze();
  t.server.clock.set(T0 * 1000);
});
afterEach(async () => {
  await t.close();
});

describe('POST /users/me/presence', () => {
  it('answers in the legacy form by default, the modern one with slim_presence or last_update_id', async () => {
    let r = await t.as('hamlet').post('/users/me/presence', { status: 'active' });
    expect(r.status).toBe(200);
    expect(r.body.server_timestamp).toBe(T0);
    expect(r.body.presences['hamlet@zulip.com']).toEqual({
      website: { client: 'website', status: 'active', timestamp: T0, pushable: false },
      aggregated: { client: 'website', status: 'active', timestamp: T0 },
    });
    // Shiva: last active 3000 s before his last connection, so idle in the legacy form.
    expect(r.body.presences['shiva@zulip.com'].aggregated).toEqual({
      client: 'website',
      status: 'idle',
      timestamp: 1795253160,
    });
    // Bots and deactivated users are left out; Prospero never reported.
    expect(Object.keys(r.body.presences)).not.toContain('ariel@zulip.com');
    expect(Object.keys(r.body.presences)).not.toContain('prospero@zulip.com');
    r = await t.as('hamlet').post('/users/me/presence', { status: 'active', slim_presence: true });
    expect(r.body.presences['4']).toEqual({ active_timestamp: T0, idle_timestamp: T0 });
    expect(r.body.presences['3']).toEqual({ active_timestamp: 1795250160, idle_timestamp: 1795253160 });
  });

  it('answers only what changed after last_update_id, and the same ID when nothing did', async () => {
    let r = await t.as('hamlet').post('/users/me/presence', { status: 'active', last_update_id: -1 });
    const newest = r.body.presence_last_update_id;
    expect(newest).toBe(t.user('hamlet').presence!.last_update_id);
    r = await t.as('hamlet').post('/users/me/presence', { status: 'active', last_update_id: newest });
    expect(r.body).toMatchObject({ presences: {}, presence_last_update_id: newest });
    await t.as('othello').post('/users/me/presence', { status: 'idle', ping_only: true });
    r = await t.as('hamlet').post('/users/me/presence', { status: 'active', last_update_id: newest });
    expect(r.body.presences).toEqual({ 5: { active_timestamp: 1795080960, idle_timestamp: T0 } });
    expect(r.body.presence_last_update_id).toBe(newest + 1);
  });

  it('history_limit_days leaves out users not connected since; 0 answers nothing', async () => {
    // Aaron last connected about 30 days before T0, Othello about 5.
    let r = await t
      .as('hamlet')
      .post('/users/me/presence', { status: 'active', last_update_id: -1, history_limit_days: 7 });
    expect(Object.keys(r.body.presences).sort()).toEqual(['1', '2', '3', '4', '5', '6', '9']);
    r = await t
      .as('hamlet')
      .post('/users/me/presence', { status: 'active', last_update_id: -1, history_limit_days: 0 });
    expect(r.body).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    r = await t.as('hamlet').post('/users/me/presence', { status: 'active', last_update_id: -1 });
    expect(Object.keys(r.body.presences)).not.toContain('8');
  });

  it('ping_only answers nothing but the envelope', async () => {
    const r = await t
      .as('hamlet')
      .post('/users/me/presence', { status: 'idle', ping_only: true, new_user_input: true });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect(t.user('hamlet').presence).toMatchObject({ active_timestamp: 1795253700, idle_timestamp: T0 });
  });

  it('does not record a user who turned presence off (invisible mode)', async () => {
    await t.as('hamlet').patch('/settings', { presence_enabled: false });
    const before = structuredClone(t.user('hamlet').presence);
    await t.as('hamlet').post('/users/me/presence', { status: 'active', ping_only: true });
    expect(t.user('hamlet').presence).toEqual(before);
  });

  it('refuses an unknown status, a missing one and bots, with the real wording', async () => {
    let r = await t.as('hamlet').post('/users/me/presence', { status: 'away' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid status: away'));
    r = await t.as('hamlet').post('/users/me/presence', {});
    expect(r.body).toEqual(error('REQUEST_VARIABLE_MISSING', "Missing 'status' argument", { var_name: 'status' }));
    r = await t.as('iago-bot').post('/users/me/presence', { status: 'active' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'This endpoint does not accept bot requests.'));
  });
});

describe('presence events', () => {
  it('reach every user in the form their queue asked for, once on coming back', async () => {
    const legacy = await registerQueue(t, 'othello', ['presence']);
    const slim = await registerQueue(t, 'cordelia', ['presence'], { slim_presence: true });
    const modern = await registerQueue(t, 'iago', ['presence'], {
      client_capabilities: { simplified_presence_events: true },
    });
    const other = await registerQueue(t, 'iago', ['message']);
    await t.as('hamlet').post('/users/me/presence', { status: 'active', ping_only: true });
    t.server.clock.advance(60_000);
    await t.as('hamlet').post('/users/me/presence', { status: 'active', ping_only: true });
    const website = { client: 'website', status: 'active', timestamp: T0, pushable: false };
    expect(await eventsOf(t, 'othello', legacy)).toEqual([
      { type: 'presence', id: 0, user_id: 4, email: 'hamlet@zulip.com', server_timestamp: T0, presence: { website } },
    ]);
    expect(await eventsOf(t, 'cordelia', slim)).toEqual([
      { type: 'presence', id: 0, user_id: 4, server_timestamp: T0, presence: { website } },
    ]);
    expect(await eventsOf(t, 'iago', modern)).toEqual([
      { type: 'presence', id: 0, presences: { 4: { active_timestamp: T0, idle_timestamp: T0 } } },
    ]);
    expect(await eventsOf(t, 'iago', other)).toEqual([]);
  });
});

describe('GET /users/{user_id_or_email}/presence and GET /realm/presence', () => {
  it('shows one user by ID or email, offline past the threshold', async () => {
    let r = await t.as('othello').get('/users/hamlet@zulip.com/presence');
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      server_timestamp: T0,
      presence: {
        active_timestamp: 1795253700,
        idle_timestamp: 1795253740,
        website: { status: 'active', timestamp: 1795253700 },
        aggregated: { status: 'offline', timestamp: 1795253700 },
      },
    });
    await t.as('hamlet').post('/users/me/presence', { status: 'active', ping_only: true });
    r = await t.as('othello').get('/users/4/presence');
    expect(r.body.presence).toEqual({
      active_timestamp: T0,
      idle_timestamp: T0,
      website: { status: 'active', timestamp: T0 },
      aggregated: { status: 'active', timestamp: T0 },
    });
  });

  it('answers in the form of the level: legacy before 487, modern times 487-496, both with server_timestamp from 497', async () => {
    const at = (level: number) =>
      t.as('othello', { 'X-Mock-Feature-Level': String(level) }).get('/users/hamlet@zulip.com/presence');
    const legacy = {
      website: { status: 'active', timestamp: 1795253700 },
      aggregated: { status: 'offline', timestamp: 1795253700 },
    };
    const modern = { active_timestamp: 1795253700, idle_timestamp: 1795253740 };
    expect((await at(486)).body).toEqual({ result: 'success', msg: '', presence: legacy });
    for (const level of [487, 496])
      expect((await at(level)).body).toEqual({ result: 'success', msg: '', presence: modern });
    expect((await at(497)).body).toEqual({
      result: 'success',
      msg: '',
      server_timestamp: T0,
      presence: { ...modern, ...legacy },
    });
  });

  it('refuses unknown and deactivated users, bots, and users without presence data', async () => {
    const cases: Array<[string, string]> = [
      ['nobody@zulip.com', 'No such user'],
      ['999', 'No such user'],
      ['ariel@zulip.com', 'No such user'],
      ['iago-bot@zulip.com', 'Presence is not supported for bot users.'],
      ['7', 'No presence data for 7'],
      ['prospero@zulip.com', 'No presence data for prospero@zulip.com'],
    ];
    for (const [who, msg] of cases) {
      const r = await t.as('othello').get(`/users/${who}/presence`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', msg));
    }
  });

  it('GET /realm/presence: the legacy form without presence_last_update_id; empty when presence is disabled', async () => {
    let r = await t.as('iago-bot').get('/realm/presence');
    expect(Object.keys(r.body).sort()).toEqual(['msg', 'presences', 'result', 'server_timestamp']);
    expect(r.body.presences['iago@zulip.com'].website).toEqual({
      client: 'website',
      status: 'active',
      timestamp: 1795253755,
      pushable: false,
    });
    t.server.world.store.updateRealm({
      shown_settings: { ...t.server.world.store.realm.shown_settings, presence_disabled: true },
    });
    r = await t.as('othello').get('/realm/presence');
    expect(r.body.presences).toEqual({});
    // The ping of a client that had presence data: -1, not the ID it sent.
    const ping = await t
      .as('othello')
      .post('/users/me/presence', { status: 'active', slim_presence: true, last_update_id: 5 });
    expect(ping.body).toMatchObject({ presences: {}, presence_last_update_id: -1 });
    t.server.world.store.updateRealm({
      shown_settings: { ...t.server.world.store.realm.shown_settings, presence_disabled: false },
    });
  });
});
