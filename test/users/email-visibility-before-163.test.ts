// Servers before feature level 163 (Zulip 7.0): email_address_visibility was the organization's
// setting (PATCH /realm, register's realm_email_address_visibility, a `realm` `update` event),
// applied to every person; user objects carried delivery_email only where it hid addresses and
// the caller's role could see them; a new delivery_email went to its user alone. Each rule at
// 162 and, beside it, what 163 answers for the same state.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { applyEvent, rawUnread } from '../events/apply-event.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const at = (level: number, who: string) => t.as(who, { 'X-Mock-Feature-Level': String(level) });
const id = (who: string) => t.user(who).user_id;
const dummy = (who: string) => `user${id(who)}@zulip.com`;
const setOrganization = async (value: number) => {
  const r = await at(162, 'iago').patch('/realm', { email_address_visibility: value });
  expect(r.status).toBe(200);
  return r;
};
const register = async (level: number, who: string, extra: Record<string, unknown> = {}) => {
  const r = await at(level, who).post('/register', extra);
  expect(r.status).toBe(200);
  return r.body;
};
/** Every event a queue holds, heartbeats and IDs left out. */
const drain = async (level: number, who: string, queueId: string) => {
  const r = await at(level, who).get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  expect(r.status).toBe(200);
  return r.body.events.filter((e: any) => e.type !== 'heartbeat').map(({ id: _id, ...e }: any) => e);
};
const person = (users: any[], who: string) => users.find((u) => u.user_id === id(who));

describe('the organization setting before FL 163', () => {
  it('is realm_email_address_visibility in register only below 163, and only with the realm section', async () => {
    expect((await register(162, 'hamlet', { fetch_event_types: ['realm'] })).realm_email_address_visibility).toBe(1);
    expect(await register(162, 'hamlet', { fetch_event_types: ['realm_user'] })).not.toHaveProperty(
      'realm_email_address_visibility',
    );
    expect(await register(163, 'hamlet', { fetch_event_types: ['realm'] })).not.toHaveProperty(
      'realm_email_address_visibility',
    );
    await setOrganization(3);
    expect((await register(162, 'hamlet', { fetch_event_types: ['realm'] })).realm_email_address_visibility).toBe(3);
  });

  it('is changed by administrators with PATCH /realm, to 1, 3, 4 or 5, and answered like other settings', async () => {
    const r = await setOrganization(5);
    expect(r.body).toEqual({ result: 'success', msg: '', email_address_visibility: 5 });
    expect(t.server.world.store.realm.email_address_visibility).toBe(5);
    // Its current value again changes nothing.
    expect((await setOrganization(5)).body).toEqual({ result: 'success', msg: '' });
    expectError(
      await at(162, 'hamlet').patch('/realm', { email_address_visibility: 3 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    for (const value of [2, 6, 0])
      expectError(
        await at(162, 'iago').patch('/realm', { email_address_visibility: value }),
        400,
        'BAD_REQUEST',
        'Invalid email_address_visibility',
      );
    expect(t.server.world.store.realm.email_address_visibility).toBe(5);
  });

  it('is no parameter of PATCH /realm from 163: ignored (named as unsupported from 167)', async () => {
    const at163 = await at(163, 'iago').patch('/realm', { email_address_visibility: 3 });
    expect(at163.body).toEqual({ result: 'success', msg: '' });
    const at167 = await at(167, 'iago').patch('/realm', { email_address_visibility: 3 });
    expect(at167.body).toEqual({
      result: 'success',
      msg: '',
      ignored_parameters_unsupported: ['email_address_visibility'],
    });
    expect(t.server.world.store.realm.email_address_visibility).toBeUndefined();
  });

  it('sends the realm update, and new API emails for every person when it goes to or from everyone, to queues below 163 only', async () => {
    const types = { event_types: ['realm', 'realm_user'], fetch_event_types: [] };
    const old = (await register(162, 'hamlet', types)).queue_id;
    const newer = (await register(163, 'hamlet', types)).queue_id;
    await setOrganization(3);
    const events = await drain(162, 'hamlet', old);
    expect(events[0]).toEqual({ type: 'realm', op: 'update', property: 'email_address_visibility', value: 3 });
    const renamed = events.slice(1);
    const humans = t.server.world.store.users.filter((u) => !u.is_bot);
    expect(renamed).toHaveLength(humans.length);
    expect(renamed).toContainEqual({
      type: 'realm_user',
      op: 'update',
      person: { user_id: id('othello'), new_email: dummy('othello') },
    });
    expect(renamed.every((e: any) => e.type === 'realm_user' && Object.keys(e.person).length === 2)).toBe(true);
    expect(await drain(163, 'hamlet', newer)).toEqual([]);
    // Between two restricted values the API emails stay: the realm event alone.
    await setOrganization(4);
    expect((await drain(162, 'hamlet', old)).slice(events.length)).toEqual([
      { type: 'realm', op: 'update', property: 'email_address_visibility', value: 4 },
    ]);
    // Back to everyone: the real addresses.
    await setOrganization(1);
    expect((await drain(162, 'hamlet', old)).slice(events.length + 1)).toContainEqual({
      type: 'realm_user',
      op: 'update',
      person: { user_id: id('othello'), new_email: 'othello@zulip.com' },
    });
    // The accounts' own settings, which decide from 163, did not change.
    expect(t.user('othello').email).toBe('othello@zulip.com');
  });
});

describe('user objects before FL 163', () => {
  it('carry no delivery_email while the organization shows every address', async () => {
    for (const viewer of ['iago', 'hamlet']) {
      const { members } = (await at(162, viewer).get('/users')).body;
      expect(members.some((u: any) => 'delivery_email' in u)).toBe(false);
      expect(person(members, 'othello').email).toBe('othello@zulip.com');
      expect((await at(162, viewer).get(`/users/${id('othello')}`)).body.user).not.toHaveProperty('delivery_email');
      expect((await at(162, viewer).get('/users/me')).body).not.toHaveProperty('delivery_email');
      const state = await register(162, viewer, { fetch_event_types: ['realm_user'] });
      expect(state.realm_users.some((u: any) => 'delivery_email' in u)).toBe(false);
      expect(state.cross_realm_bots.some((u: any) => 'delivery_email' in u)).toBe(false);
      // The client's own address is always in register.
      expect(state.delivery_email).toBe(`${viewer}@zulip.com`);
    }
    // From 163: always there (null without access), decided by each account's own setting.
    const fromHamlet = (await at(163, 'hamlet').get(`/users/${id('othello')}`)).body.user;
    expect(fromHamlet.delivery_email).toBe('othello@zulip.com');
  });

  it('with administrators only: the real addresses to administrators, of everyone and bots, and stand-ins', async () => {
    await setOrganization(3);
    const byIago = (await at(162, 'iago').get('/users')).body.members;
    expect(person(byIago, 'othello')).toMatchObject({ email: dummy('othello'), delivery_email: 'othello@zulip.com' });
    expect(person(byIago, 'iago')).toMatchObject({ email: dummy('iago'), delivery_email: 'iago@zulip.com' });
    expect(person(byIago, 'iago-bot')).toMatchObject({
      email: t.user('iago-bot').email,
      delivery_email: t.user('iago-bot').delivery_email,
    });
    expect((await at(162, 'iago').get('/users/me')).body).toMatchObject({
      email: dummy('iago'),
      delivery_email: 'iago@zulip.com',
    });

    // A member sees no real address, not even their own in GET /users/me.
    const byHamlet = (await at(162, 'hamlet').get('/users')).body.members;
    expect(byHamlet.some((u: any) => 'delivery_email' in u)).toBe(false);
    expect(person(byHamlet, 'othello').email).toBe(dummy('othello'));
    expect(person(byHamlet, 'iago-bot').email).toBe(t.user('iago-bot').email);
    const me = (await at(162, 'hamlet').get('/users/me')).body;
    expect(me.email).toBe(dummy('hamlet'));
    expect(me).not.toHaveProperty('delivery_email');
    const state = await register(162, 'hamlet', { fetch_event_types: ['realm_user'] });
    expect([state.email, state.delivery_email]).toEqual([dummy('hamlet'), 'hamlet@zulip.com']);
    expect(person(state.realm_users, 'othello')).not.toHaveProperty('delivery_email');
    const adminState = await register(162, 'iago', { fetch_event_types: ['realm_user'] });
    expect(person(adminState.realm_users, 'othello').delivery_email).toBe('othello@zulip.com');

    // The moderator is no administrator; with moderators (5) they see the addresses too.
    expect((await at(162, 'shiva').get(`/users/${id('othello')}`)).body.user).not.toHaveProperty('delivery_email');
    await setOrganization(5);
    expect((await at(162, 'shiva').get(`/users/${id('othello')}`)).body.user.delivery_email).toBe('othello@zulip.com');

    // At 163 the same state answers by the accounts' own settings (all "everyone" here).
    const newer = (await at(163, 'hamlet').get(`/users/${id('othello')}`)).body.user;
    expect([newer.email, newer.delivery_email]).toEqual(['othello@zulip.com', 'othello@zulip.com']);
  });

  it('are found by GET /users/{email} by the API email the organization gives', async () => {
    const byEmail = (email: string) => at(162, 'hamlet').get(`/users/${email}`);
    expect((await byEmail('OTHELLO@zulip.com')).body.user.user_id).toBe(id('othello'));
    expectError(await byEmail(dummy('othello')), 400, 'BAD_REQUEST', 'No such user');
    await setOrganization(4);
    expect((await byEmail(dummy('othello'))).body.user.user_id).toBe(id('othello'));
    expectError(await byEmail('othello@zulip.com'), 400, 'BAD_REQUEST', 'No such user');
    expect((await byEmail(t.user('iago-bot').email)).body.user.user_id).toBe(id('iago-bot'));
  });

  it('give client_gravatar clients avatar URLs while the organization hides addresses', async () => {
    const avatar = async () =>
      person((await at(162, 'hamlet').get('/users', { client_gravatar: true })).body.members, 'othello').avatar_url;
    expect(await avatar()).toBeNull();
    await setOrganization(4);
    expect(await avatar()).toMatch(/^https:\/\/secure\.gravatar\.com\//);
  });

  it('are sent in realm_user add as the new account itself would see them', async () => {
    await setOrganization(3);
    const types = { event_types: ['realm_user'], fetch_event_types: [] };
    const old = (await register(162, 'iago', types)).queue_id;
    const newer = (await register(163, 'iago', types)).queue_id;
    const created = await t
      .as('iago')
      .post('/users', { email: 'newbie@zulip.com', password: 'secret-password', full_name: 'New' });
    expect(created.status).toBe(200);
    const [oldAdd] = await drain(162, 'iago', old);
    expect(oldAdd.op).toBe('add');
    expect(oldAdd.person.email).toBe(`user${created.body.user_id}@zulip.com`);
    expect(oldAdd.person).not.toHaveProperty('delivery_email');
    const [newAdd] = await drain(163, 'iago', newer);
    expect(newAdd.person).toMatchObject({ email: 'newbie@zulip.com', delivery_email: 'newbie@zulip.com' });
  });
});

describe('a client registered below FL 163', () => {
  it('reaches what a fresh register says by applying the events of a change of the organization setting', async () => {
    const params = {
      fetch_event_types: ['realm', 'realm_user'],
      event_types: ['realm', 'realm_user'],
      client_gravatar: false,
    };
    const state = await register(162, 'hamlet', params);
    for (const value of [3, 4, 1, 5]) await setOrganization(value);
    for (const event of await drain(162, 'hamlet', state.queue_id))
      applyEvent(state, rawUnread({ pms: [], streams: [], huddles: [] }), event, id('hamlet'));
    const fresh = await register(162, 'hamlet', params);
    const pick = (s: any) => ({
      setting: s.realm_email_address_visibility,
      me: [s.email, s.delivery_email],
      users: s.realm_users.map((u: any) => [u.user_id, u.email, u.delivery_email, u.avatar_url]),
    });
    expect(pick(state)).toEqual(pick(fresh));
    expect(pick(fresh).me).toEqual([dummy('hamlet'), 'hamlet@zulip.com']);
  });
});

describe('delivery_email events before FL 163', () => {
  it('a new address goes to its user alone; from 163 to everyone who may see it', async () => {
    t.server.world.store.users.update(t.user('iago'), { can_change_user_emails: true });
    const types = { event_types: ['realm_user'], fetch_event_types: [] };
    const queues: Record<string, string> = {};
    for (const who of ['othello', 'hamlet', 'iago']) {
      queues[`${who}162`] = (await register(162, who, types)).queue_id;
      queues[`${who}163`] = (await register(163, who, types)).queue_id;
    }
    const othello = id('othello');
    expect((await t.as('iago').patch(`/users/${othello}`, { new_email: 'moor@zulip.com' })).status).toBe(200);
    const delivery = {
      type: 'realm_user',
      op: 'update',
      person: { user_id: othello, delivery_email: 'moor@zulip.com' },
    };
    const renamed = {
      type: 'realm_user',
      op: 'update',
      person: { user_id: othello, new_email: 'moor@zulip.com' },
    };
    const addressEvents = (events: any[]) =>
      events.filter((e) => 'delivery_email' in e.person || 'new_email' in e.person);
    // Othello signs in by the new address now.
    expect(addressEvents(await drain(162, 'moor', queues.othello162!))).toEqual([delivery, renamed]);
    for (const who of ['hamlet', 'iago'])
      expect(addressEvents(await drain(162, who, queues[`${who}162`]!))).toEqual([renamed]);
    for (const who of ['othello', 'hamlet', 'iago'])
      expect(addressEvents(await drain(163, who === 'othello' ? 'moor' : who, queues[`${who}163`]!))).toEqual([
        delivery,
        renamed,
      ]);
  });

  it('a change of an account’s own setting (FL 163) sends queues below 163 no realm_user events', async () => {
    const types = { event_types: ['realm_user'], fetch_event_types: [] };
    const old = (await register(162, 'hamlet', types)).queue_id;
    const newer = (await register(163, 'hamlet', types)).queue_id;
    expect((await at(163, 'othello').patch('/settings', { email_address_visibility: 3 })).status).toBe(200);
    const addressEvents = (events: any[]) =>
      events.filter((e) => 'delivery_email' in e.person || 'new_email' in e.person);
    // Nor the avatar's: there the organization's setting, unchanged, decides who computes Gravatars.
    expect(await drain(162, 'hamlet', old)).toEqual([]);
    expect(addressEvents(await drain(163, 'hamlet', newer))).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: id('othello'), delivery_email: null } },
      { type: 'realm_user', op: 'update', person: { user_id: id('othello'), new_email: dummy('othello') } },
    ]);
  });
});
