// The user endpoints clients call: GET /users, GET /users/{user_id}, GET /users/{email},
// POST /users, GET /users/{user_id}/status and POST /fetch_api_key.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError, watchEvents } from '../subscriptions/read-back.js';
import { systemGroupId } from '../../src/domain/groups/membership.js';
import { registerQueue } from './helpers.js';

let t: TestServer;
beforeEach(async () => { t = await startTestServer(); });
afterEach(async () => { await t.close(); });

const store = () => t.server.world.store;
const id = (who: string) => t.user(who).user_id;

describe('GET /users', () => {
  it('lists every user and bot of the organization by ID, deactivated ones included, without the system bots', async () => {
    const r = await t.as('hamlet').get('/users');
    expect(r.status).toBe(200);
    const ids = r.body.members.map((m: any) => m.user_id);
    const expected = store().users.filter((u) => !u.is_system_bot).map((u) => u.user_id).sort((a, b) => a - b);
    expect(ids).toEqual(expected);
    expect(ids).toContain(id('ariel'));
    expect(ids).toContain(id('iago-bot'));
    expect(ids).not.toContain(store().realm.notification_bot_id);
    const ariel = r.body.members.find((m: any) => m.user_id === id('ariel'));
    expect(ariel.is_active).toBe(false);
    const bot = r.body.members.find((m: any) => m.user_id === id('iago-bot'));
    expect(bot).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: id('iago') });
  });

  it('shows real email addresses only to administrators and to the user', async () => {
    const asMember = await t.as('hamlet').get('/users');
    const byId = (body: any, who: string) => body.members.find((m: any) => m.user_id === id(who));
    expect(byId(asMember.body, 'othello').delivery_email).toBeNull();
    expect(byId(asMember.body, 'hamlet').delivery_email).toBe('hamlet@zulip.com');
    const asAdmin = await t.as('iago').get('/users');
    expect(byId(asAdmin.body, 'othello').delivery_email).toBe('othello@zulip.com');
  });

  it('sends null avatar URLs to client_gravatar clients (the default) and URLs otherwise', async () => {
    const gravatar = await t.as('hamlet').get('/users');
    expect(gravatar.body.members.every((m: any) => m.avatar_url === null)).toBe(true);
    const urls = await t.as('hamlet').get('/users', { client_gravatar: false });
    expect(urls.body.members.every((m: any) => typeof m.avatar_url === 'string' && m.avatar_url.startsWith('https://'))).toBe(true);
  });

  it('adds profile_data to people only with include_custom_profile_fields', async () => {
    const plain = await t.as('hamlet').get('/users');
    expect(plain.body.members.some((m: any) => 'profile_data' in m)).toBe(false);
    const full = await t.as('hamlet').get('/users', { include_custom_profile_fields: true });
    const hamlet = full.body.members.find((m: any) => m.user_id === id('hamlet'));
    const bot = full.body.members.find((m: any) => m.user_id === id('iago-bot'));
    expect(hamlet.profile_data).toEqual(t.user('hamlet').profile_data);
    expect(hamlet.profile_data['9']).toEqual({ value: 'he/him', rendered_value: '<p>he/him</p>' });
    expect(bot).not.toHaveProperty('profile_data');
  });
});

describe('GET /users/{user_id} and GET /users/{email}', () => {
  it('returns one user by ID, deactivated users and bots included', async () => {
    const r = await t.as('hamlet').get(`/users/${id('othello')}`);
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ user_id: id('othello'), full_name: 'Othello, the Moor of Venice', role: 400, is_active: true });
    expect((await t.as('hamlet').get(`/users/${id('ariel')}`)).body.user.is_active).toBe(false);
    expect((await t.as('hamlet').get(`/users/${id('hamlet-bot')}`)).body.user.is_bot).toBe(true);
  });

  it('answers "No such user" for an unknown ID and for the system bots', async () => {
    expectError(await t.as('hamlet').get('/users/9999'), 400, 'BAD_REQUEST', 'No such user');
    expectError(await t.as('hamlet').get(`/users/${store().realm.notification_bot_id}`), 400, 'BAD_REQUEST', 'No such user');
  });

  it('finds a user by email address without regard to case', async () => {
    const r = await t.as('hamlet').get('/users/IAGO@zulip.com');
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ user_id: id('iago'), is_admin: true, role: 200 });
    expectError(await t.as('hamlet').get('/users/nobody@zulip.com'), 400, 'BAD_REQUEST', 'No such user');
  });
});

describe('POST /users', () => {
  const params = { email: 'newbie@zulip.com', password: 'secret-password', full_name: '  New User  ' };

  it('lets an administrator in can_create_users_group create a member who can log in and is listed', async () => {
    const r = await t.as('iago').post('/users', params);
    expect(r.status).toBe(200);
    const userId = r.body.user_id;
    const listed = await t.as('hamlet').get(`/users/${userId}`);
    expect(listed.body.user).toMatchObject({ email: 'newbie@zulip.com', full_name: 'New User', role: 400, is_active: true, is_bot: false });
    const login = await t.anonymous().post('/fetch_api_key', { username: 'newbie@zulip.com', password: 'secret-password' });
    expect(login.body).toMatchObject({ result: 'success', email: 'newbie@zulip.com', user_id: userId });
    expect(login.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('subscribes the new user to the default channels and adds them to the member system groups', async () => {
    const r = await t.as('iago').post('/users', params);
    const userId = r.body.user_id;
    const subscribed = store().subscriptions.filter((s) => s.user_id === userId).map((s) => s.stream_id).sort();
    expect(subscribed).toEqual([...store().realm.default_stream_ids].sort());
    expect(store().userGroups.get(systemGroupId(store(), 'role:members'))!.direct_members).toContain(userId);
    expect(store().userGroups.get(systemGroupId(store(), 'role:fullmembers'))!.direct_members).toContain(userId);
  });

  it('tells every user through a realm_user add event (the real address to administrators only)', async () => {
    const hamletQueue = await registerQueue(t.as('hamlet'), ['realm_user']);
    const desdemonaQueue = await registerQueue(t.as('desdemona'), ['realm_user']);
    const r = await t.as('iago').post('/users', params);
    const [forHamlet] = await hamletQueue.events();
    expect(forHamlet).toMatchObject({ type: 'realm_user', op: 'add', person: { user_id: r.body.user_id, full_name: 'New User', delivery_email: null } });
    const [forOwner] = await desdemonaQueue.events();
    expect(forOwner.person.delivery_email).toBe('newbie@zulip.com');
  });

  it('sends subscription peer_add and user_group add_members events', async () => {
    const seen = watchEvents(t);
    const r = await t.as('iago').post('/users', params);
    const peerAdds = seen.filter((s) => s.event.type === 'subscription' && s.event.op === 'peer_add');
    expect(peerAdds.map((s) => s.event.stream_ids[0]).sort()).toEqual([...store().realm.default_stream_ids].sort());
    expect(peerAdds.every((s) => s.event.user_ids[0] === r.body.user_id)).toBe(true);
    const groupEvents = seen.filter((s) => s.event.type === 'user_group' && s.event.op === 'add_members');
    expect(groupEvents.map((s) => s.event.group_id).sort()).toEqual(
      [systemGroupId(store(), 'role:fullmembers'), systemGroupId(store(), 'role:members')].sort());
  });

  it('refuses non-administrators and administrators outside can_create_users_group', async () => {
    expectError(await t.as('shiva').post('/users', params), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    expectError(await t.as('hamlet').post('/users', params), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    store().updateRealm({ can_create_users_group: systemGroupId(store(), 'role:owners') });
    expectError(await t.as('iago').post('/users', params), 400, 'BAD_REQUEST', 'User not authorized to create users');
    expect((await t.as('desdemona').post('/users', params)).status).toBe(200);
    expect(store().users.by('email', 'newbie@zulip.com')).toBeDefined();
  });

  it('refuses an address in use, an invalid address, a weak password and an invalid name', async () => {
    expectError(await t.as('iago').post('/users', { ...params, email: 'Hamlet@zulip.com' }), 400, 'BAD_REQUEST', "Email 'Hamlet@zulip.com' already in use");
    expectError(await t.as('iago').post('/users', { ...params, email: 'ariel@zulip.com' }), 400, 'BAD_REQUEST', "Email 'ariel@zulip.com' already in use");
    expectError(await t.as('iago').post('/users', { ...params, email: 'not-an-address' }), 400, 'BAD_REQUEST', 'Bad name or username');
    expectError(await t.as('iago').post('/users', { ...params, password: 'abc' }), 400, 'BAD_REQUEST', 'The password is too weak.');
    expectError(await t.as('iago').post('/users', { ...params, full_name: 'x' }), 400, 'BAD_REQUEST', 'Name too short!');
    expectError(await t.as('iago').post('/users', { ...params, full_name: 'Bad *name*' }), 400, 'BAD_REQUEST', 'Invalid characters in name!');
    expectError(await t.as('iago').post('/users', { email: 'a@b.com', full_name: 'Someone' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'password' argument");
    expect(store().users.find((u) => u.email === 'newbie@zulip.com')).toBeUndefined();
  });
});

describe('GET /users/{user_id}/status', () => {
  it('returns only the parts of the status that are set', async () => {
    const set = await t.as('othello').post('/users/me/status', { status_text: 'on vacation', emoji_name: 'car' });
    expect(set.status).toBe(200);
    const r = await t.as('hamlet').get(`/users/${id('othello')}/status`);
    expect(r.status).toBe(200);
    expect(r.body.status).toEqual({ status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
    const empty = await t.as('hamlet').get(`/users/${id('cordelia')}/status`);
    expect(empty.body.status).toEqual({});
  });

  it('reports away when the user turned presence off', async () => {
    await t.as('cordelia').post('/users/me/status', { away: true });
    expect((await t.as('hamlet').get(`/users/${id('cordelia')}/status`)).body.status).toEqual({ away: true });
  });

  it('refuses unknown users, bots and deactivated users', async () => {
    expectError(await t.as('hamlet').get('/users/9999/status'), 400, 'BAD_REQUEST', 'No such user');
    expectError(await t.as('hamlet').get(`/users/${id('iago-bot')}/status`), 400, 'BAD_REQUEST', 'No such user');
    expectError(await t.as('hamlet').get(`/users/${id('ariel')}/status`), 400, 'BAD_REQUEST', 'User is deactivated');
  });

  it('does not exist before feature level 262', async () => {
    const r = await t.as('hamlet', { 'X-Mock-Feature-Level': '261' }).get(`/users/${id('othello')}/status`);
    expectError(r, 404, 'BAD_REQUEST', 'Not Found');
  });
});

describe('POST /fetch_api_key', () => {
  it('exchanges the fixture email and password for the API key without authentication', async () => {
    const r = await t.anonymous().post('/fetch_api_key', { username: 'iago@zulip.com', password: 'password_iago' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', api_key: t.user('iago').api_key, email: 'iago@zulip.com', user_id: id('iago') });
    const me = await t.anonymous().call('GET', '/users/me');
    expect(me.status).toBe(401);
  });

  it('compares the address without regard to case', async () => {
    const r = await t.anonymous().post('/fetch_api_key', { username: 'Hamlet@Zulip.com', password: 'password_hamlet' });
    expect(r.body.user_id).toBe(id('hamlet'));
  });

  it('answers 401 AUTHENTICATION_FAILED for a wrong password, an unknown address and a bot', async () => {
    const failed = (res: any) => expectError(res, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    failed(await t.anonymous().post('/fetch_api_key', { username: 'iago@zulip.com', password: 'wrong' }));
    failed(await t.anonymous().post('/fetch_api_key', { username: 'nobody@zulip.com', password: 'password_iago' }));
    failed(await t.anonymous().post('/fetch_api_key', { username: 'iago-bot@zulip.com', password: 'password_iago-bot' }));
  });

  it('answers 401 USER_DEACTIVATED for a deactivated account, whatever the password', async () => {
    for (const password of ['password_ariel', 'wrong']) {
      expectError(await t.anonymous().post('/fetch_api_key', { username: 'ariel@zulip.com', password }), 401, 'USER_DEACTIVATED', 'Account is deactivated');
    }
  });

  it('refuses a username that is not an email address and a missing password', async () => {
    expectError(await t.anonymous().post('/fetch_api_key', { username: 'iago', password: 'password_iago' }), 400, 'BAD_REQUEST', 'Enter a valid email address.');
    expectError(await t.anonymous().post('/fetch_api_key', { username: 'iago@zulip.com' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'password' argument");
  });
});
