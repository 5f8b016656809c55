// PATCH /users/{user_id} and /users/{email} with new_email (FL 313): the can_change_user_emails
// special permission, the checks in the real server's order with its wording, the addresses read
// back, the events each kind of user gets, and the level gate.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { applyEvent, rawUnread } from '../events/apply-event.js';
import { emailChangeEvents } from '../helpers/email-change-events.js';

let t: TestServer;
/** User IDs by short name, taken before any address changes. */
let ids: Map<string, number>;
beforeEach(async () => {
  t = await startTestServer();
  ids = new Map(t.server.world.store.users.all().map((u) => [u.email.split('@')[0], u.user_id]));
});
afterEach(async () => {
  await t.close();
});

const id = (who: string) => ids.get(who)!;
const ok = { result: 'success', msg: '' };
/** What the change_user_role management command does on the real server. */
const grant = (who: string) =>
  t.server.world.store.users.update(t.server.world.store.users.get(id(who))!, { can_change_user_emails: true });
const readUser = async (userId: number, viewer = 'iago') =>
  (await t.as(viewer).get(`/users/${userId}`, { client_gravatar: false })).body.user;
const userEvents = (events: any[]) => events.filter((e) => e.type === 'realm_user' || e.type === 'realm_bot');

describe('new_email: the change', () => {
  it('changes the real and the API address of an account that shows it to everyone, and tells each user what they may see', async () => {
    grant('iago');
    const othello = id('othello');
    const queues = {
      iago: await registerQueue(t, 'iago', ['realm_user', 'realm_bot']),
      hamlet: await registerQueue(t, 'hamlet', ['realm_user', 'realm_bot']),
      othello: await registerQueue(t, 'othello', ['realm_user', 'realm_bot']),
    };
    const before = await readUser(othello);
    const r = await t.as('iago').patch(`/users/${othello}`, { new_email: 'moor@venice.example' });
    expect(r.body).toEqual(ok);

    const after = await readUser(othello);
    expect([after.email, after.delivery_email]).toEqual(['moor@venice.example', 'moor@venice.example']);
    expect(after.avatar_url).not.toBe(before.avatar_url);
    // The account shows its address to everyone (email_address_visibility 1): a member sees it too.
    expect(await readUser(othello, 'hamlet')).toMatchObject({
      email: 'moor@venice.example',
      delivery_email: 'moor@venice.example',
    });
    // The account is found by its new address only.
    expect((await t.as('iago').get('/users/moor@venice.example')).body.user.user_id).toBe(othello);
    expect((await t.as('iago').get('/users/othello@zulip.com')).body).toEqual(error('BAD_REQUEST', 'No such user'));
    // Its owner's own view of it.
    const me = (await t.as('moor@venice.example').post('/register', { fetch_event_types: ['realm_user'] })).body;
    expect([me.email, me.delivery_email]).toEqual(['moor@venice.example', 'moor@venice.example']);

    const { delivery, avatar, apiEmail } = emailChangeEvents(othello, 'moor@venice.example', {
      avatar_url: after.avatar_url,
      avatar_version: before.avatar_version,
    });
    const strip = (events: any[]) => userEvents(events).map(({ id: _id, ...e }) => e);
    expect(strip(await eventsOf(t, 'iago', queues.iago))).toEqual([delivery, avatar, apiEmail]);
    expect(strip(await eventsOf(t, 'moor@venice.example', queues.othello))).toEqual([delivery, avatar, apiEmail]);
    expect(strip(await eventsOf(t, 'hamlet', queues.hamlet))).toEqual([delivery, avatar, apiEmail]);
  });

  it('changes only the real address of an account that hides it, with no new_email event', async () => {
    grant('iago');
    const othello = id('othello');
    expect((await t.as('othello').patch('/settings', { email_address_visibility: 3 })).body).toMatchObject(ok);
    const q = await registerQueue(t, 'iago', ['realm_user']);
    expect((await t.as('iago').patch(`/users/${othello}`, { new_email: 'moor@venice.example' })).body).toEqual(ok);
    const after = await readUser(othello);
    expect([after.email, after.delivery_email]).toEqual([`user${othello}@zulip.com`, 'moor@venice.example']);
    const persons = (await eventsOf(t, 'iago', q)).map((e) => Object.keys(e.person).sort().join(','));
    expect(persons).toEqual([
      'delivery_email,user_id',
      'avatar_source,avatar_url,avatar_url_medium,avatar_version,user_id',
    ]);
  });

  it('sends nothing when the address is the current one as written', async () => {
    grant('iago');
    const q = await registerQueue(t, 'iago', ['realm_user']);
    const r = await t.as('iago').patch(`/users/${id('othello')}`, { new_email: 'othello@zulip.com' });
    expect(r.body).toEqual(ok);
    expect(await eventsOf(t, 'iago', q)).toEqual([]);
  });

  it('makes the change with the other parts of the request, the address last', async () => {
    grant('desdemona');
    const q = await registerQueue(t, 'iago', ['realm_user']);
    const r = await t
      .as('desdemona')
      .patch(`/users/${id('othello')}`, { full_name: 'The Moor', new_email: 'moor@venice.example' });
    expect(r.body).toEqual(ok);
    expect(await readUser(id('othello'))).toMatchObject({ full_name: 'The Moor', email: 'moor@venice.example' });
    const first = (await eventsOf(t, 'iago', q))[0];
    expect(first.person).toEqual({ user_id: id('othello'), full_name: 'The Moor' });
  });

  it("changes a bot's address, telling its owner through realm_bot (queues before FL 474)", async () => {
    grant('iago');
    const bot = id('hamlet-bot');
    const fl473 = t.as('hamlet', { 'X-Mock-Feature-Level': '473' });
    const q = (await fl473.post('/register', { event_types: ['realm_bot'], fetch_event_types: [] })).body.queue_id;
    expect((await t.as('iago').patch(`/users/${bot}`, { new_email: 'danish-bot@zulip.com' })).body).toEqual(ok);
    expect((await readUser(bot)).email).toBe('danish-bot@zulip.com');
    const { events } = (await fl473.get('/events', { queue_id: q, last_event_id: -1, dont_block: true })).body;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'realm_bot', op: 'update', bot: { user_id: bot } });
    expect(Object.keys(events[0].bot).sort()).toEqual(['avatar_url', 'user_id']);
  });

  it('PATCH /users/{email} changes the account named by its address', async () => {
    grant('iago');
    const r = await t.as('iago').patch('/users/hamlet@zulip.com', { new_email: 'username@example.com' });
    expect(r.body).toEqual(ok);
    expect((await readUser(id('hamlet'))).delivery_email).toBe('username@example.com');
    const again = await t.as('iago').patch('/users/hamlet@zulip.com', { new_email: 'prince@example.com' });
    expect(again.body).toEqual(error('BAD_REQUEST', 'No such user'));
  });

  it('takes the permission from an imported state (or a fixture, or a scenario)', async () => {
    const exported = await (await fetch(`${t.base}/__mock/state`)).json();
    const iago = exported.state.users.find((u: { email: string }) => u.email === 'iago@zulip.com');
    iago.can_change_user_emails = true;
    const put = await fetch(`${t.base}/__mock/state`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: exported.state }),
    });
    expect(put.status).toBe(200);
    const r = await t.as('iago').patch(`/users/${id('othello')}`, { new_email: 'moor@venice.example' });
    expect(r.body).toEqual(ok);
  });
});

describe('new_email: the events bring a registered client to what a fresh register says', () => {
  it.each([
    ['an administrator', 'iago', 'iago@zulip.com'],
    ['a member', 'hamlet', 'hamlet@zulip.com'],
    ['the user changed', 'othello', 'moor@venice.example'],
  ])('for %s', async (_, who, address) => {
    grant('desdemona');
    const params = { fetch_event_types: ['realm_user'], event_types: ['realm_user'], client_gravatar: false };
    const state = (await t.as(who).post('/register', params)).body;
    expect(
      (await t.as('desdemona').patch(`/users/${id('othello')}`, { new_email: 'moor@venice.example' })).body,
    ).toEqual(ok);
    const { events } = (
      await t.as(address).get('/events', { queue_id: state.queue_id, last_event_id: -1, dont_block: true })
    ).body;
    for (const event of events) applyEvent(state, rawUnread({ pms: [], streams: [], huddles: [] }), event, id(who));
    const fresh = (await t.as(address).post('/register', params)).body;
    const pick = (s: any) => ({
      me: [s.email, s.delivery_email, s.avatar_url],
      users: s.realm_users.map((u: any) => [u.user_id, u.email, u.delivery_email, u.avatar_url]),
    });
    expect(pick(state)).toEqual(pick(fresh));
  });
});

describe('new_email: refusals, in the real order, changing nothing', () => {
  it('refuses administrators and owners without the permission, even for the current address', async () => {
    for (const [who, address] of [
      ['iago', 'moor@venice.example'],
      ['desdemona', 'moor@venice.example'],
      ['iago', 'othello@zulip.com'],
    ]) {
      const r = await t.as(who).patch(`/users/${id('othello')}`, { full_name: 'The Moor', new_email: address });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', 'User not authorized to change user emails'));
    }
    expect(await readUser(id('othello'))).toMatchObject({
      full_name: 'Othello, the Moor of Venice',
      email: 'othello@zulip.com',
    });
  });

  it('asks who may administer the target first, then the permission of one who may', async () => {
    grant('hamlet');
    let r = await t.as('hamlet').patch(`/users/${id('othello')}`, { new_email: 'moor@venice.example' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    // Hamlet owns the bot and holds the permission, but is no administrator.
    r = await t.as('hamlet').patch(`/users/${id('hamlet-bot')}`, { new_email: 'danish-bot@zulip.com' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'User not authorized to change user emails'));
  });

  it.each([
    ['not-an-address', 'Invalid new email address.'],
    ['cordelia@zulip.com', 'New email value error: Already has an account.'],
    ['CORDELIA@zulip.com', 'New email value error: Already has an account.'],
    // A change of case alone is a change, and the address is then the target's own.
    ['OTHELLO@zulip.com', 'New email value error: Already has an account.'],
    ['notification-bot@zulip.com', 'New email value error: Reserved for system bots.'],
  ])('refuses the address %s: %s', async (address, msg) => {
    grant('iago');
    const r = await t.as('iago').patch(`/users/${id('othello')}`, { full_name: 'The Moor', new_email: address });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', msg));
    expect(await readUser(id('othello'))).toMatchObject({
      full_name: 'Othello, the Moor of Venice',
      email: 'othello@zulip.com',
    });
  });

  it("refuses a deactivated account's address", async () => {
    grant('iago');
    expect((await t.as('iago').delete(`/users/${id('prospero')}`)).body).toEqual(ok);
    const r = await t.as('iago').patch(`/users/${id('othello')}`, { new_email: 'prospero@zulip.com' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'New email value error: Account has been deactivated.'));
  });

  it('checks the role before the address', async () => {
    grant('iago');
    const r = await t.as('iago').patch(`/users/${id('othello')}`, { role: 100, new_email: 'not-an-address' });
    expect(r.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'));
  });
});

describe('new_email: the level gate (FL 313)', () => {
  it('is ignored below 313, permission or not, and acted on from 313', async () => {
    const at = (level: number) => t.as('iago', { 'X-Mock-Feature-Level': String(level) });
    let r = await at(312).patch(`/users/${id('othello')}`, { new_email: 'moor@venice.example' });
    expect(r.body).toEqual({ ...ok, ignored_parameters_unsupported: ['new_email'] });
    grant('iago');
    r = await at(312).patch(`/users/${id('othello')}`, { new_email: 'moor@venice.example' });
    expect(r.body).toEqual({ ...ok, ignored_parameters_unsupported: ['new_email'] });
    expect((await readUser(id('othello'))).email).toBe('othello@zulip.com');
    r = await at(313).patch(`/users/${id('othello')}`, { new_email: 'moor@venice.example' });
    expect(r.body).toEqual(ok);
    expect((await readUser(id('othello'))).email).toBe('moor@venice.example');
  });
});
