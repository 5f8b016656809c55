// PATCH /user_groups/{id} and POST /user_groups/{id}/subgroups: who may change a group, the
// {new, old} settings, the values read back, and the events another user's queue gets.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { groupId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const patch = (as: string, name: string, params: Record<string, unknown>) =>
  t.as(as).patch(`/user_groups/${groupId(t, name)}`, params);
const listed = async (name: string) =>
  (await t.as('iago').get('/user_groups', { include_deactivated_groups: true })).body.user_groups.find(
    (g: any) => g.id === groupId(t, name),
  );

describe('updating a user group', () => {
  it('lets can_manage_group holders rename and change settings, with one event per change', async () => {
    // backend: can_manage_group = {othello}
    const queue = await registerQueue(t, 'cordelia', ['user_group']);
    const gid = groupId(t, 'backend');
    const r = await patch('othello', 'backend', {
      name: 'platform',
      description: 'Servers.',
      can_join_group: { new: groupId(t, 'role:moderators'), old: groupId(t, 'role:members') },
    });
    expect(r.body).toEqual(ok);
    expect(await listed('platform')).toMatchObject({
      name: 'platform',
      description: 'Servers.',
      can_join_group: groupId(t, 'role:moderators'),
    });
    expect(await eventsOf(t, 'cordelia', queue)).toEqual([
      expect.objectContaining({ type: 'user_group', op: 'update', group_id: gid, data: { name: 'platform' } }),
      expect.objectContaining({ type: 'user_group', op: 'update', group_id: gid, data: { description: 'Servers.' } }),
      expect.objectContaining({
        type: 'user_group',
        op: 'update',
        group_id: gid,
        data: { can_join_group: groupId(t, 'role:moderators') },
      }),
    ]);
  });

  it('refuses members outside can_manage_group, system groups, and stale old values', async () => {
    expect((await patch('hamlet', 'backend', { name: 'x' })).body).toEqual(
      error('BAD_REQUEST', 'Insufficient permission'),
    );
    expect((await patch('desdemona', 'role:members', { description: 'x' })).body).toEqual(
      error('BAD_REQUEST', 'Insufficient permission'),
    );
    expect((await patch('polonius', 'backend', { name: 'x' })).body).toEqual(
      error('BAD_REQUEST', 'Not allowed for guest users'),
    );
    expect((await patch('othello', 'backend', {})).body).toEqual(error('BAD_REQUEST', 'No new data supplied'));
    expect(
      (
        await patch('othello', 'backend', {
          can_join_group: { new: groupId(t, 'role:nobody'), old: groupId(t, 'role:nobody') },
        })
      ).body,
    ).toEqual(error('BAD_REQUEST', "'old' value does not match the expected value."));
    expect((await patch('othello', 'backend', { name: 'leadership' })).body).toEqual(
      error('BAD_REQUEST', "User group 'leadership' already exists."),
    );
    expect((await listed('backend')).can_join_group).toBe(groupId(t, 'role:members'));
  });

  it('reactivates a deactivated group: an update for clients that list them, an add for the others', async () => {
    const withCap = await registerQueue(t, 'cordelia', ['user_group'], {
      client_capabilities: { include_deactivated_groups: true },
    });
    const without = await registerQueue(t, 'othello', ['user_group']);
    // support: deactivated; the organization's can_manage_all_groups is role:owners.
    expect((await patch('hamlet', 'support', { deactivated: false })).body).toEqual(
      error('BAD_REQUEST', 'Insufficient permission'),
    );
    expect((await patch('desdemona', 'support', { deactivated: false })).body).toEqual(ok);
    expect((await listed('support')).deactivated).toBe(false);
    expect(await eventsOf(t, 'cordelia', withCap)).toEqual([
      expect.objectContaining({ op: 'update', data: { deactivated: false } }),
    ]);
    expect(await eventsOf(t, 'othello', without)).toEqual([
      expect.objectContaining({ op: 'add', group: await listed('support') }),
    ]);
  });
});

describe('POST /user_groups/{id}/subgroups', () => {
  const subgroups = (as: string, params: Record<string, unknown>) =>
    t.as(as).post(`/user_groups/${groupId(t, 'backend')}/subgroups`, params);

  it('adds and removes subgroups for a manager, with their events', async () => {
    const queue = await registerQueue(t, 'cordelia', ['user_group']);
    const mods = groupId(t, 'role:moderators');
    expect((await subgroups('othello', { add: [mods] })).body).toEqual(ok);
    expect((await listed('backend')).direct_subgroup_ids).toEqual([groupId(t, 'hamletcharacters'), mods]);
    expect((await subgroups('othello', { delete: [mods] })).body).toEqual(ok);
    expect((await listed('backend')).direct_subgroup_ids).toEqual([groupId(t, 'hamletcharacters')]);
    expect((await eventsOf(t, 'cordelia', queue)).map((e) => [e.op, e.direct_subgroup_ids])).toEqual([
      ['add_subgroups', [mods]],
      ['remove_subgroups', [mods]],
    ]);
  });

  it('refuses others, empty requests and cycles', async () => {
    expect((await subgroups('hamlet', { add: [groupId(t, 'role:moderators')] })).body).toEqual(
      error('BAD_REQUEST', 'Insufficient permission'),
    );
    expect((await subgroups('othello', {})).body).toEqual(
      error('BAD_REQUEST', 'Nothing to do. Specify at least one of "add" or "delete".'),
    );
    // leadership already contains backend.
    expect((await subgroups('othello', { add: [groupId(t, 'leadership')] })).body).toEqual(
      error('BAD_REQUEST', `User group ${groupId(t, 'backend')} is already a subgroup of one of the passed subgroups.`),
    );
  });
});
