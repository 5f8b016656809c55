// POST /user_groups/{id}/deactivate: who may, the in-use objections, the state read back and
// the events (update for clients that list deactivated groups, remove for the others).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { groupId } from '../helpers/fixture-rows.js';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

const deactivate = (as: string, name: string) => t.as(as).post(`/user_groups/${groupId(t, name)}/deactivate`, {});
const listed = async (as: string, name: string) =>
  (await t.as(as).get('/user_groups')).body.user_groups.find((g: any) => g.id === groupId(t, name));

describe('deactivating a user group', () => {
  it('deactivates for a manager; GET /user_groups leaves it out; queues get update or remove', async () => {
    const withCap = await registerQueue(t, 'cordelia', ['user_group'], {
      client_capabilities: { include_deactivated_groups: true },
    });
    const without = await registerQueue(t, 'hamlet', ['user_group']);
    const gid = groupId(t, 'hamletcharacters');
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

  it('refuses a group that still holds a permission, saying where', async () => {
    // Being another group's subgroup is no objection; holding an organization permission is.
    const gid = groupId(t, 'backend');
    t.server.world.store.updateRealm({ can_create_groups: { direct_members: [], direct_subgroups: [gid] } });
    const r = await deactivate('othello', 'backend');
    expect(r.body).toEqual({
      result: 'error',
      code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
      msg: 'Cannot deactivate user group in use.',
      objections: [{ type: 'realm', settings: ['can_create_groups'] }],
    });
    expect((await listed('iago', 'backend')).deactivated).toBe(false);
  });
});
