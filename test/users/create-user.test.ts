// POST /users: an administrator creates a user, who can then log in; everyone is told.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue, watchEvents } from '../helpers/events.js';
import { systemGroupId } from '../../src/domain/group-settings/membership.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const store = () => t.server.world.store;

describe('POST /users', () => {
  const params = { email: 'newbie@zulip.com', password: 'secret-password', full_name: '  New User  ' };

  it('lets an administrator in can_create_users_group create a member who can log in and is listed', async () => {
    const r = await t.as('iago').post('/users', params);
    expect(r.status).toBe(200);
    const userId = r.body.user_id;
    const listed = await t.as('hamlet').get(`/users/${userId}`);
    expect(listed.body.user).toMatchObject({
      email: 'newbie@zulip.com',
      full_name: 'New User',
      role: 400,
      is_active: true,
      is_bot: false,
    });
    const login = await t
      .anonymous()
      .post('/fetch_api_key', { username: 'newbie@zulip.com', password: 'secret-password' });
    expect(login.body).toMatchObject({ result: 'success', email: 'newbie@zulip.com', user_id: userId });
    expect(login.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('subscribes the new user to the default channels and adds them to the member system groups', async () => {
    const r = await t.as('iago').post('/users', params);
    const userId = r.body.user_id;
    const subscribed = store()
      .subscriptions.filter((s) => s.user_id === userId)
      .map((s) => s.stream_id)
      .sort();
    expect(subscribed).toEqual([...store().realm.default_stream_ids].sort());
    expect(store().userGroups.get(systemGroupId(store(), 'role:members'))!.direct_members).toContain(userId);
    expect(store().userGroups.get(systemGroupId(store(), 'role:fullmembers'))!.direct_members).toContain(userId);
  });

  it('tells every user through a realm_user add event (the real address to those the default visibility lets see it)', async () => {
    const hamletQueue = await registerQueue(t, 'hamlet', ['realm_user']);
    const r = await t.as('iago').post('/users', params);
    const [forHamlet] = await eventsOf(t, 'hamlet', hamletQueue);
    expect(forHamlet).toMatchObject({
      type: 'realm_user',
      op: 'add',
      person: {
        user_id: r.body.user_id,
        full_name: 'New User',
        email: 'newbie@zulip.com',
        delivery_email: 'newbie@zulip.com',
      },
    });
  });

  it('gives a new user the stand-in API email when the default visibility is not everyone', async () => {
    const defaults = await t.as('iago').patch('/realm/user_settings_defaults', { email_address_visibility: 3 });
    expect(defaults.status).toBe(200);
    const hamletQueue = await registerQueue(t, 'hamlet', ['realm_user']);
    const desdemonaQueue = await registerQueue(t, 'desdemona', ['realm_user']);
    const r = await t.as('iago').post('/users', params);
    const dummy = `user${r.body.user_id}@zulip.com`;
    const [forHamlet] = await eventsOf(t, 'hamlet', hamletQueue);
    expect(forHamlet.person).toMatchObject({ email: dummy, delivery_email: null });
    const [forOwner] = await eventsOf(t, 'desdemona', desdemonaQueue);
    expect(forOwner.person).toMatchObject({ email: dummy, delivery_email: 'newbie@zulip.com' });
    // The account still logs in by its real address.
    const login = await t
      .anonymous()
      .post('/fetch_api_key', { username: 'newbie@zulip.com', password: params.password });
    expect(login.body).toMatchObject({ result: 'success', email: 'newbie@zulip.com', user_id: r.body.user_id });
  });

  it('sends subscription peer_add and user_group add_members events', async () => {
    const seen = watchEvents(t);
    const r = await t.as('iago').post('/users', params);
    const peerAdds = seen.filter((s) => s.event.type === 'subscription' && s.event.op === 'peer_add');
    expect(peerAdds.map((s) => s.event.stream_ids[0]).sort()).toEqual([...store().realm.default_stream_ids].sort());
    expect(peerAdds.every((s) => s.event.user_ids[0] === r.body.user_id)).toBe(true);
    const groupEvents = seen.filter((s) => s.event.type === 'user_group' && s.event.op === 'add_members');
    expect(groupEvents.map((s) => s.event.group_id).sort()).toEqual(
      [systemGroupId(store(), 'role:fullmembers'), systemGroupId(store(), 'role:members')].sort(),
    );
  });

  it('refuses non-administrators and administrators outside can_create_users_group', async () => {
    expectError(
      await t.as('shiva').post('/users', params),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await t.as('hamlet').post('/users', params),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    store().updateRealm({ can_create_users_group: systemGroupId(store(), 'role:owners') });
    expectError(await t.as('iago').post('/users', params), 400, 'BAD_REQUEST', 'User not authorized to create users');
    expect((await t.as('desdemona').post('/users', params)).status).toBe(200);
    expect(store().users.by('email', 'newbie@zulip.com')).toBeDefined();
  });

  it('refuses an address in use, an invalid address, a weak password and an invalid name', async () => {
    expectError(
      await t.as('iago').post('/users', { ...params, email: 'Hamlet@zulip.com' }),
      400,
      'BAD_REQUEST',
      "Email 'Hamlet@zulip.com' already in use",
    );
    expectError(
      await t.as('iago').post('/users', { ...params, email: 'ariel@zulip.com' }),
      400,
      'BAD_REQUEST',
      "Email 'ariel@zulip.com' already in use",
    );
    expectError(
      await t.as('iago').post('/users', { ...params, email: 'not-an-address' }),
      400,
      'BAD_REQUEST',
      'Bad name or username',
    );
    // The development server's rules: only the empty password is weak (test/production/ has production's).
    expectError(
      await t.as('iago').post('/users', { ...params, password: '' }),
      400,
      'BAD_REQUEST',
      'The password is too weak.',
    );
    expectError(
      await t.as('iago').post('/users', { ...params, full_name: 'x' }),
      400,
      'BAD_REQUEST',
      'Name too short!',
    );
    expectError(
      await t.as('iago').post('/users', { ...params, full_name: 'Bad *name*' }),
      400,
      'BAD_REQUEST',
      'Invalid characters in name!',
    );
    expectError(
      await t.as('iago').post('/users', { email: 'a@b.com', full_name: 'Someone' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'password' argument",
    );
    expect(store().users.find((u) => u.email === 'newbie@zulip.com')).toBeUndefined();
  });
});
