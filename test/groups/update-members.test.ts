// POST /user_groups/{id}/members: add, delete, add_subgroups, delete_subgroups, who may do what,
// and the server's errors, each change read back through GET /user_groups/{id}/members/{user_id}.
import { describe, expect, it, vi } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { groupId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
const group = (name: string) => t.server.world.store.userGroups.get(groupId(t, name))!;
const change = (as: string, name: string, params: Record<string, unknown>) =>
  t.as(as).post(`/user_groups/${groupId(t, name)}/members`, params);
const isMember = async (name: string, who: string, direct = false) =>
  (await t.as('iago').get(`/user_groups/${groupId(t, name)}/members/${id(who)}`, { direct_member_only: direct })).body
    .is_user_group_member;
const ok = { result: 'success', msg: '' };

describe('adding and removing members: permissions', () => {
  it('lets a holder of can_add_members_group add users, and refuses others', async () => {
    // backend: can_add_members_group = {othello}
    let r = await change('hamlet', 'backend', { add: [id('aaron')] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    expect(await isMember('backend', 'aaron')).toBe(false);
    r = await change('othello', 'backend', { add: [id('aaron'), id('shiva')] });
    expect(r.body).toEqual(ok);
    expect(await isMember('backend', 'aaron', true)).toBe(true);
    expect(await isMember('backend', 'shiva', true)).toBe(true);
  });

  it('does not make administrators group managers: can_manage_all_groups decides', async () => {
    // hamletcharacters: every permission is role:nobody; the organization's can_manage_all_groups is role:owners.
    let r = await change('iago', 'hamletcharacters', { add: [id('othello')] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    r = await change('desdemona', 'hamletcharacters', { add: [id('othello')] });
    expect(r.body).toEqual(ok);
    expect(await isMember('hamletcharacters', 'othello')).toBe(true);
  });

  it('lets the holders of can_manage_group remove members even without can_remove_members_group', async () => {
    // backend: can_remove_members_group = role:nobody, can_manage_group = {othello}
    let r = await change('prospero', 'backend', { delete: [id('othello')] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    r = await change('othello', 'backend', { delete: [id('prospero')] });
    expect(r.body).toEqual(ok);
    expect(await isMember('backend', 'prospero')).toBe(false);
  });

  it('lets users join with can_join_group and leave with can_leave_group', async () => {
    // backend: can_join_group = role:members; hamletcharacters: can_leave_group = role:everyone.
    let r = await change('aaron', 'backend', { add: [id('aaron')] });
    expect(r.body).toEqual(ok);
    expect(await isMember('backend', 'aaron', true)).toBe(true);
    r = await change('aaron', 'hamletcharacters', { add: [id('aaron')] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));

    r = await change('cordelia', 'hamletcharacters', { delete: [id('hamlet')] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    r = await change('cordelia', 'hamletcharacters', { delete: [id('cordelia')] });
    expect(r.body).toEqual(ok);
    expect(await isMember('hamletcharacters', 'cordelia')).toBe(false);
    expect(await isMember('hamletcharacters', 'hamlet')).toBe(true);
  });

  it('refuses system groups to everyone, owners included', async () => {
    const r = await change('desdemona', 'role:members', { add: [id('polonius')] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    expect(await isMember('role:members', 'polonius')).toBe(false);
  });

  it('refuses guests', async () => {
    const r = await change('polonius', 'hamletcharacters', { delete: [id('polonius')] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Not allowed for guest users'));
  });

  it('lets bots call it when they hold the permission', async () => {
    const store = t.server.world.store;
    store.userGroups.update(group('backend'), {
      can_add_members_group: { direct_members: [id('hamlet-bot')], direct_subgroups: [] },
    });
    const r = await change('hamlet-bot', 'backend', { add: [id('aaron')] });
    expect(r.body).toEqual(ok);
    expect(await isMember('backend', 'aaron')).toBe(true);
  });

  it('changes the members of a deactivated group', async () => {
    const r = await change('desdemona', 'support', { add: [id('hamlet')], delete: [id('aaron')] });
    expect(r.body).toEqual(ok);
    expect(await isMember('support', 'hamlet')).toBe(true);
    expect(await isMember('support', 'aaron')).toBe(false);
  });
});

describe('adding and removing members: errors', () => {
  it('needs something to do', async () => {
    const r = await change('desdemona', 'backend', { add: [], delete_subgroups: [] });
    expect(r.body).toEqual(
      error(
        'BAD_REQUEST',
        'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
      ),
    );
  });

  it('answers "Invalid user group" for an unknown group', async () => {
    const r = await t.as('desdemona').post('/user_groups/999/members', { add: [id('hamlet')] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid user group'));
  });

  it('rejects unknown and deactivated users', async () => {
    for (const target of [9999, id('ariel')]) {
      for (const key of ['add', 'delete']) {
        const r = await change('desdemona', 'backend', { [key]: [target] });
        expect(r.body).toEqual(error('BAD_REQUEST', `Invalid user ID: ${target}`));
      }
    }
    expect(group('backend').direct_members).toEqual([id('othello'), id('prospero')]);
  });

  it('rejects adding a member twice and removing a non-member', async () => {
    let r = await change('othello', 'backend', { add: [id('aaron'), id('prospero')] });
    expect(r.body).toEqual(error('BAD_REQUEST', `User ${id('prospero')} is already a member of this group`));
    expect(await isMember('backend', 'aaron')).toBe(false);
    // hamlet is a member only through a subgroup, not a direct member.
    r = await change('othello', 'backend', { delete: [id('hamlet')] });
    expect(r.body).toEqual(error('BAD_REQUEST', `There is no member '${id('hamlet')}' in this user group`));
    expect(await isMember('backend', 'hamlet')).toBe(true);
  });

  it('changes nothing when a later part of the request fails', async () => {
    const r = await change('othello', 'backend', { add: [id('aaron')], delete: [id('cordelia')] });
    expect(r.body).toEqual(error('BAD_REQUEST', `There is no member '${id('cordelia')}' in this user group`));
    expect(await isMember('backend', 'aaron')).toBe(false);
  });

  it('runs delete after add within one request', async () => {
    const r = await change('othello', 'backend', { add: [id('aaron')], delete: [id('aaron'), id('prospero')] });
    expect(r.body).toEqual(ok);
    expect(group('backend').direct_members).toEqual([id('othello')]);
  });
});

describe('subgroups', () => {
  it('adds a subgroup with can_add_members_group, whose members then count', async () => {
    // leadership: can_add_members_group = role:administrators
    expect(await isMember('leadership', 'polonius')).toBe(false);
    let r = await change('hamlet', 'leadership', { add_subgroups: [groupId(t, 'role:everyone')] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    r = await change('iago', 'leadership', { add_subgroups: [groupId(t, 'role:everyone')] });
    expect(r.body).toEqual(ok);
    expect(await isMember('leadership', 'polonius')).toBe(true);
    expect(await isMember('leadership', 'polonius', true)).toBe(false);
  });

  it('removes a subgroup with can_manage_group only', async () => {
    // backend: can_add_members_group and can_manage_group = {othello}; hamletcharacters is its subgroup.
    t.server.world.store.userGroups.update(group('backend'), { can_manage_group: 1 });
    let r = await change('othello', 'backend', { delete_subgroups: [groupId(t, 'hamletcharacters')] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    t.server.world.store.userGroups.update(group('backend'), {
      can_manage_group: { direct_members: [id('othello')], direct_subgroups: [] },
    });
    r = await change('othello', 'backend', { delete_subgroups: [groupId(t, 'hamletcharacters')] });
    expect(r.body).toEqual(ok);
    expect(await isMember('backend', 'hamlet')).toBe(false);
  });

  it('refuses cycles, duplicates, non-subgroups and unknown or deactivated groups', async () => {
    const hc = groupId(t, 'hamletcharacters');
    // hamletcharacters is inside backend, which is inside leadership.
    let r = await change('desdemona', 'hamletcharacters', { add_subgroups: [groupId(t, 'leadership')] });
    expect(r.body).toEqual(
      error('BAD_REQUEST', `User group ${hc} is already a subgroup of one of the passed subgroups.`),
    );
    r = await change('desdemona', 'hamletcharacters', { add_subgroups: [hc] });
    expect(r.body).toEqual(
      error('BAD_REQUEST', `User group ${hc} is already a subgroup of one of the passed subgroups.`),
    );
    r = await change('desdemona', 'backend', { add_subgroups: [hc] });
    expect(r.body).toEqual(error('BAD_REQUEST', `User group ${hc} is already a subgroup of this group.`));
    r = await change('desdemona', 'backend', { delete_subgroups: [groupId(t, 'leadership')] });
    expect(r.body).toEqual(
      error('BAD_REQUEST', `User group ${groupId(t, 'leadership')} is not a subgroup of this group.`),
    );
    r = await change('desdemona', 'backend', { add_subgroups: [999] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid user group ID: 999'));
    r = await change('desdemona', 'backend', { add_subgroups: [groupId(t, 'support')] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'User group is deactivated.'));
    r = await change('desdemona', 'backend', { delete_subgroups: [groupId(t, 'support')] });
    expect(r.body).toEqual(error('BAD_REQUEST', 'User group is deactivated.'));
    expect(group('hamletcharacters').direct_subgroups).toEqual([]);
    expect(group('backend').direct_subgroups).toEqual([hc]);
  });
});

describe('events', () => {
  it('publishes user_group events for each kind of change to every active user', async () => {
    const publish = vi.spyOn(t.server.world.events, 'publish');
    const gid = groupId(t, 'backend');
    const r = await change('desdemona', 'backend', {
      add: [id('aaron')],
      delete: [id('prospero')],
      add_subgroups: [groupId(t, 'role:moderators')],
      delete_subgroups: [groupId(t, 'hamletcharacters')],
    });
    expect(r.body).toEqual(ok);
    expect(publish.mock.calls.map(([, e]) => e)).toEqual([
      { type: 'user_group', op: 'add_members', group_id: gid, user_ids: [id('aaron')] },
      { type: 'user_group', op: 'remove_members', group_id: gid, user_ids: [id('prospero')] },
      { type: 'user_group', op: 'add_subgroups', group_id: gid, direct_subgroup_ids: [groupId(t, 'role:moderators')] },
      {
        type: 'user_group',
        op: 'remove_subgroups',
        group_id: gid,
        direct_subgroup_ids: [groupId(t, 'hamletcharacters')],
      },
    ]);
    expect([...publish.mock.calls[0][0]]).toContain(id('polonius'));
  });
});
