// POST /user_groups/{id}/deactivate: who may, the in-use objections, the state read back and
// the events (update for clients that list deactivated groups, remove for the others).
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { groupId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const deactivate = (as: string, name: string) => t.as(as).post(`/user_groups/${groupId(t, name)}/deactivate`, {});
const listed = async (as: string, name: string) =>
  (await t.as(as).get('/user_groups')).body.user_groups.find((g: any) => g.id === groupId(t, name));

describe('deactivating a user group', () => {
  it('deactivates for a manager; GET /user_groups leaves it out; queues get update or remove', async () => {
    const gid = groupId(t, 'hamletcharacters');
    // hamletcharacters is a subgroup of backend: it stops being one first.
    expect(
      (await t.as('desdemona').post(`/user_groups/${groupId(t, 'backend')}/subgroups`, { delete: [gid] })).status,
    ).toBe(200);
    const withCap = await registerQueue(t, 'cordelia', ['user_group'], {
      client_capabilities: { include_deactivated_groups: true },
    });
    const without = await registerQueue(t, 'hamlet', ['user_group']);
    // hamletcharacters: its managers are role:nobody; the organization's can_manage_all_groups is role:owners.
    expect((await deactivate('iago', 'hamletcharacters')).body).toEqual(
      error('BAD_REQUEST', 'Insufficient permission'),
    );
    expect((await deactivate('desdemona', 'hamletcharacters')).body).toEqual({ result: 'success', msg: '' });
    expect(await listed('iago', 'hamletcharacters')).toBeUndefined();
    expect((await deactivate('desdemona', 'hamletcharacters')).body).toEqual(
      error('BAD_REQUEST', 'User group is deactivated.'),
    );
    expect(await eventsOf(t, 'cordelia', withCap)).toEqual([
      expect.objectContaining({ type: 'user_group', op: 'update', group_id: gid, data: { deactivated: true } }),
    ]);
    expect(await eventsOf(t, 'hamlet', without)).toEqual([
      expect.objectContaining({ type: 'user_group', op: 'remove', group_id: gid }),
    ]);
  });

  it('refuses a group that still holds a permission or is a subgroup of an active group, saying where (supergroups first)', async () => {
    // backend is a subgroup of leadership, and now holds an organization permission too.
    const gid = groupId(t, 'backend');
    t.server.world.store.updateRealm({ can_create_groups: { direct_members: [], direct_subgroups: [gid] } });
    const r = await deactivate('othello', 'backend');
    expect(r.body).toEqual({
      result: 'error',
      code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
      msg: 'Cannot deactivate user group in use.',
      objections: [
        { type: 'subgroup', supergroup_ids: [groupId(t, 'leadership')] },
        { type: 'realm', settings: ['can_create_groups'] },
      ],
    });
    expect((await listed('iago', 'backend')).deactivated).toBe(false);
  });

  it('refuses a subgroup of an active group until that group is deactivated', async () => {
    const inUse = {
      result: 'error',
      code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
      msg: 'Cannot deactivate user group in use.',
      objections: [{ type: 'subgroup', supergroup_ids: [groupId(t, 'leadership')] }],
    };
    expect((await deactivate('desdemona', 'backend')).body).toEqual(inUse);
    expect((await listed('iago', 'backend')).deactivated).toBe(false);
    expect((await deactivate('desdemona', 'leadership')).body).toEqual({ result: 'success', msg: '' });
    expect((await deactivate('desdemona', 'backend')).body).toEqual({ result: 'success', msg: '' });
    expect(await listed('iago', 'backend')).toBeUndefined();
  });
});
