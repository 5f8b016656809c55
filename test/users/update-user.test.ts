// PATCH /users/{user_id}: who may edit whom, the owner rules, the role system groups, the name and
// custom profile fields, with the events other users' queues receive and the state read back.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { groupId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
const ok = { result: 'success', msg: '' };
const readUser = async (who: string) =>
  (await t.as('cordelia').get(`/users/${id(who)}`, { include_custom_profile_fields: true })).body.user;
const directMembers = async (group: string): Promise<number[]> =>
  (await t.as('cordelia').get('/user_groups')).body.user_groups.find((g: { id: number }) => g.id === groupId(t, group))
    .members;

describe('PATCH /users/{user_id}: permissions', () => {
  it('refuses members and moderators, changing nothing', async () => {
    for (const who of ['othello', 'shiva']) {
      const r = await t.as(who).patch(`/users/${id('hamlet')}`, { full_name: 'Prince Hamlet', role: 300 });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    }
    expect(await readUser('hamlet')).toMatchObject({ full_name: 'King Hamlet', role: 400 });
  });

  it("does not find unknown users or the server's own bots", async () => {
    for (const target of [9999, id('notification-bot')]) {
      const r = await t.as('iago').patch(`/users/${target}`, { full_name: 'Someone' });
      expect(r.body).toEqual(error('BAD_REQUEST', 'No such user'));
    }
  });

  it('checks every change before making any: a bad profile field leaves the name and role as they were', async () => {
    // Found by the long fuzz run: the name and role used to change before the profile data was refused.
    const before = await readUser('hamlet');
    const r = await t.as('desdemona').patch(`/users/${id('hamlet')}`, {
      full_name: 'Prince of Denmark',
      role: 200,
      profile_data: [{ id: 17, value: null }],
    });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Field id 17 not found.'));
    const after = await readUser('hamlet');
    expect([after.full_name, after.role]).toEqual([before.full_name, before.role]);
  });

  it('lets only owners give or take the owner role', async () => {
    let r = await t.as('iago').patch(`/users/${id('hamlet')}`, { role: 100 });
    expect(r.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'));
    r = await t.as('iago').patch(`/users/${id('desdemona')}`, { role: 200 });
    expect(r.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'));
    r = await t.as('desdemona').patch(`/users/${id('hamlet')}`, { role: 100 });
    expect(r.body).toEqual(ok);
    expect((await readUser('hamlet')).is_owner).toBe(true);
  });

  it('keeps the only owner an owner', async () => {
    const r = await t.as('desdemona').patch(`/users/${id('desdemona')}`, { role: 200 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(
      error('BAD_REQUEST', 'The owner permission cannot be removed from the only organization owner.'),
    );
    expect((await readUser('desdemona')).role).toBe(100);
    await t.as('desdemona').patch(`/users/${id('iago')}`, { role: 100 });
    expect((await t.as('iago').patch(`/users/${id('desdemona')}`, { role: 400 })).body).toEqual(ok);
    expect((await readUser('desdemona')).role).toBe(400);
  });

  it("lets a bot's owner rename the bot but not change its role", async () => {
    let r = await t.as('hamlet').patch(`/users/${id('hamlet-bot')}`, { full_name: 'Danish Bot' });
    expect(r.body).toEqual(ok);
    expect((await readUser('hamlet-bot')).full_name).toBe('Danish Bot');
    r = await t.as('hamlet').patch(`/users/${id('hamlet-bot')}`, { role: 300 });
    expect(r.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
  });
});

describe('PATCH /users/{user_id}: role', () => {
  it('moves the user between the role system groups and tells everyone', async () => {
    const queue = await registerQueue(t, 'othello', ['realm_user', 'user_group']);
    const r = await t.as('iago').patch(`/users/${id('hamlet')}`, { role: 300 });
    expect(r.body).toEqual(ok);
    const events = (await eventsOf(t, 'othello', queue)).map(({ id: _id, ...e }) => e);
    expect(events).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: id('hamlet'), role: 300 } },
      { type: 'user_group', op: 'remove_members', group_id: groupId(t, 'role:members'), user_ids: [id('hamlet')] },
      { type: 'user_group', op: 'add_members', group_id: groupId(t, 'role:moderators'), user_ids: [id('hamlet')] },
      { type: 'user_group', op: 'remove_members', group_id: groupId(t, 'role:fullmembers'), user_ids: [id('hamlet')] },
    ]);
    expect(await readUser('hamlet')).toMatchObject({ role: 300, is_admin: false });
    expect(await directMembers('role:moderators')).toContain(id('hamlet'));
    expect(await directMembers('role:members')).not.toContain(id('hamlet'));
    expect(await directMembers('role:fullmembers')).not.toContain(id('hamlet'));
    // Back to member: a full member again (the fixture has no waiting period).
    await t.as('iago').patch(`/users/${id('hamlet')}`, { role: 400 });
    expect(await directMembers('role:fullmembers')).toContain(id('hamlet'));
    expect(await directMembers('role:members')).toContain(id('hamlet'));
  });

  it('makes a guest of a member: role:everyone', async () => {
    await t.as('iago').patch(`/users/${id('othello')}`, { role: 600 });
    expect(await readUser('othello')).toMatchObject({ role: 600, is_guest: true });
    expect(await directMembers('role:everyone')).toContain(id('othello'));
  });

  it('changes nothing and sends nothing when the role is the current one', async () => {
    const queue = await registerQueue(t, 'othello', ['realm_user', 'user_group']);
    expect((await t.as('iago').patch(`/users/${id('hamlet')}`, { role: 400 })).body).toEqual(ok);
    expect(await eventsOf(t, 'othello', queue)).toEqual([]);
  });
});

describe('PATCH /users/{user_id}: name and profile data', () => {
  it('renames with the real name checks; a blank name is ignored', async () => {
    const queue = await registerQueue(t, 'othello', ['realm_user']);
    expect((await t.as('iago').patch(`/users/${id('hamlet')}`, { full_name: '  Prince Hamlet ' })).body).toEqual(ok);
    expect((await t.as('iago').patch(`/users/${id('hamlet')}`, { full_name: '   ' })).body).toEqual(ok);
    let r = await t.as('iago').patch(`/users/${id('hamlet')}`, { full_name: 'H' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Name too short!'));
    r = await t.as('iago').patch(`/users/${id('hamlet')}`, { full_name: 'Ham@let' });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid characters in name!'));
    expect((await readUser('hamlet')).full_name).toBe('Prince Hamlet');
    const events = await eventsOf(t, 'othello', queue);
    expect(events.map((e) => e.person)).toEqual([{ user_id: id('hamlet'), full_name: 'Prince Hamlet' }]);
  });

  it('sets, renders and removes profile values, announcing only changes', async () => {
    const queue = await registerQueue(t, 'othello', ['realm_user']);
    const r = await t.as('iago').patch(`/users/${id('hamlet')}`, {
      profile_data: [
        { id: 1, value: '+0-11-23-456-7890' }, // unchanged
        { id: 2, value: 'Prince of **Denmark**' },
        { id: 4, value: '1' },
        { id: 7, value: [5, 6] },
        { id: 5, value: '' },
      ],
    });
    expect(r.body).toEqual(ok);
    const profile = (await readUser('hamlet')).profile_data;
    expect(profile['2']).toEqual({
      value: 'Prince of **Denmark**',
      rendered_value: '<p>Prince of <strong>Denmark</strong></p>',
    });
    expect(profile['4']).toEqual({ value: '1' });
    expect(profile['7']).toEqual({ value: '[5,6]' });
    expect(profile['5']).toBeUndefined();
    expect(profile['1']).toEqual({ value: '+0-11-23-456-7890' });
    const fields = (await eventsOf(t, 'othello', queue)).map((e) => e.person.custom_profile_field);
    expect(fields).toEqual([
      { id: 5, value: null },
      { id: 2, value: 'Prince of **Denmark**', rendered_value: '<p>Prince of <strong>Denmark</strong></p>' },
      { id: 4, value: '1' },
      { id: 7, value: '[5,6]' },
    ]);
  });

  it('refuses values that do not fit their field, changing nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ id: 99, value: 'x' }, 'Field id 99 not found.'],
      [{ id: 1, value: 'x'.repeat(51) }, 'Phone number is too long (limit: 50 characters)'],
      [{ id: 2, value: 'x'.repeat(501) }, 'Biography is too long (limit: 500 characters)'],
      [{ id: 4, value: '7' }, "'7' is not a valid choice for 'Favorite editor'."],
      [{ id: 5, value: '1909-13-05' }, 'Birthday is not a date'],
      [{ id: 6, value: 'not a link' }, 'Favorite website is not a URL'],
      [{ id: 7, value: [999] }, 'Invalid user ID: 999'],
      [{ id: 7, value: 'Othello' }, 'User IDs is not a list'],
      [{ id: 1, value: [5] }, 'Phone number is not a string'],
    ];
    const before = (await readUser('hamlet')).profile_data;
    for (const [entry, msg] of cases) {
      const r = await t.as('iago').patch(`/users/${id('hamlet')}`, { profile_data: [entry] });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', msg));
    }
    expect((await readUser('hamlet')).profile_data).toEqual(before);
  });
});

describe('PATCH /users/{email} (FL 313)', () => {
  it('edits the user the address names, case aside, as PATCH /users/{user_id} does', async () => {
    const queue = await registerQueue(t, 'othello', ['realm_user']);
    const r = await t.as('iago').patch('/users/HAMLET@zulip.com', { full_name: 'Prince Hamlet' });
    expect(r.body).toEqual(ok);
    expect((await readUser('hamlet')).full_name).toBe('Prince Hamlet');
    expect((await eventsOf(t, 'othello', queue)).map((e) => e.person)).toEqual([
      { user_id: id('hamlet'), full_name: 'Prince Hamlet' },
    ]);
  });

  it('has the same refusals', async () => {
    expect((await t.as('iago').patch('/users/nobody@zulip.com', { full_name: 'X y' })).body).toEqual(
      error('BAD_REQUEST', 'No such user'),
    );
    expect((await t.as('iago').patch('/users/notification-bot@zulip.com', { full_name: 'X y' })).body).toEqual(
      error('BAD_REQUEST', 'No such user'),
    );
    expect((await t.as('othello').patch('/users/hamlet@zulip.com', { full_name: 'X y' })).body).toEqual(
      error('BAD_REQUEST', 'Insufficient permission'),
    );
    expect((await t.as('iago').patch('/users/hamlet@zulip.com', { role: 100 })).body).toEqual(
      error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'),
    );
  });

  it('is unknown below FL 313, where only GET has the path', async () => {
    const r = await t
      .as('iago', { 'X-Mock-Feature-Level': '312' })
      .patch('/users/hamlet@zulip.com', { full_name: 'Prince Hamlet' });
    expect(r.status).toBe(405);
    expect(r.body.allowed_methods).toEqual(['GET']);
  });
});
