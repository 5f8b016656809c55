// Reading users: GET /users, GET /users/{user_id} and GET /users/{email}.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const store = () => t.server.world.store;
const id = (who: string) => t.user(who).user_id;

describe('GET /users', () => {
  it('lists every user and bot of the organization by ID, deactivated ones included, without the system bots', async () => {
    const r = await t.as('hamlet').get('/users');
    expect(r.status).toBe(200);
    const ids = r.body.members.map((m: any) => m.user_id);
    const expected = store()
      .users.filter((u) => !u.is_system_bot)
      .map((u) => u.user_id)
      .sort((a, b) => a - b);
    expect(ids).toEqual(expected);
    expect(ids).toContain(id('ariel'));
    expect(ids).toContain(id('iago-bot'));
    expect(ids).not.toContain(store().realm.notification_bot_id);
    const ariel = r.body.members.find((m: any) => m.user_id === id('ariel'));
    expect(ariel.is_active).toBe(false);
    const bot = r.body.members.find((m: any) => m.user_id === id('iago-bot'));
    expect(bot).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: id('iago') });
  });

  it("shows each real address as its owner's visibility allows (the fixture's: everyone)", async () => {
    const byId = (body: any, who: string) => body.members.find((m: any) => m.user_id === id(who));
    const asGuest = await t.as('polonius').get('/users');
    expect(byId(asGuest.body, 'othello').delivery_email).toBe('othello@zulip.com');
    expect(byId(asGuest.body, 'iago-bot').delivery_email).toBe('iago-bot@zulip.com');
    expect((await t.as('othello').patch('/settings', { email_address_visibility: 3 })).status).toBe(200);
    const asMember = await t.as('hamlet').get('/users');
    expect(byId(asMember.body, 'othello').delivery_email).toBeNull();
    expect(byId(asMember.body, 'hamlet').delivery_email).toBe('hamlet@zulip.com');
    const asAdmin = await t.as('iago').get('/users');
    expect(byId(asAdmin.body, 'othello').delivery_email).toBe('othello@zulip.com');
  });

  it('sends null avatar URLs to client_gravatar clients (the default) and URLs otherwise', async () => {
    const gravatar = await t.as('hamlet').get('/users');
    expect(gravatar.body.members.every((m: any) => m.avatar_url === null)).toBe(true);
    const urls = await t.as('hamlet').get('/users', { client_gravatar: false });
    expect(
      urls.body.members.every((m: any) => typeof m.avatar_url === 'string' && m.avatar_url.startsWith('https://')),
    ).toBe(true);
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
    expect(r.body.user).toMatchObject({
      user_id: id('othello'),
      full_name: 'Othello, the Moor of Venice',
      role: 400,
      is_active: true,
    });
    expect((await t.as('hamlet').get(`/users/${id('ariel')}`)).body.user.is_active).toBe(false);
    expect((await t.as('hamlet').get(`/users/${id('hamlet-bot')}`)).body.user.is_bot).toBe(true);
  });

  it('answers "No such user" for an unknown ID and for the system bots', async () => {
    expectError(await t.as('hamlet').get('/users/9999'), 400, 'BAD_REQUEST', 'No such user');
    expectError(
      await t.as('hamlet').get(`/users/${store().realm.notification_bot_id}`),
      400,
      'BAD_REQUEST',
      'No such user',
    );
  });

  it('finds a user by email address without regard to case', async () => {
    const r = await t.as('hamlet').get('/users/IAGO@zulip.com');
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ user_id: id('iago'), is_admin: true, role: 200 });
    expectError(await t.as('hamlet').get('/users/nobody@zulip.com'), 400, 'BAD_REQUEST', 'No such user');
  });
});
