// POST /user_groups/create: who may create, the name rules, the settings' defaults and checks,
// the group read back through GET /user_groups, and the add event another user's queue gets.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { groupId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
const create = (as: string, params: Record<string, unknown>) =>
  t.as(as).post('/user_groups/create', { description: 'The team.', members: [], ...params });
const listed = async (gid: number) =>
  (await t.as('iago').get('/user_groups')).body.user_groups.find((g: any) => g.id === gid);

describe('creating a user group', () => {
  it('creates the group with its defaults, reads it back, and tells every user', async () => {
    const queue = await registerQueue(t, 'cordelia', ['user_group']);
    const r = await create('hamlet', {
      name: 'marketing',
      members: [id('othello'), id('hamlet')],
      subgroups: [groupId(t, 'hamletcharacters')],
    });
    expect(r.status).toBe(200);
    const gid = r.body.group_id;
    expect(typeof gid).toBe('number');
    const g = await listed(gid);
    expect(g).toMatchObject({
      name: 'marketing',
      description: 'The team.',
      members: [id('othello'), id('hamlet')],
      direct_subgroup_ids: [groupId(t, 'hamletcharacters')],
      is_system_group: false,
      creator_id: id('hamlet'),
      deactivated: false,
      can_manage_group: { direct_members: [id('hamlet')], direct_subgroups: [] },
      can_add_members_group: { direct_members: [id('hamlet')], direct_subgroups: [] },
      can_join_group: groupId(t, 'role:nobody'),
      can_remove_members_group: groupId(t, 'role:nobody'),
      can_leave_group: groupId(t, 'role:everyone'),
      can_mention_group: groupId(t, 'role:everyone'),
    });
    const events = await eventsOf(t, 'cordelia', queue);
    expect(events).toEqual([expect.objectContaining({ type: 'user_group', op: 'add', group: g })]);
  });

  it('takes the permission settings given, normalised', async () => {
    const r = await create('hamlet', {
      name: 'ops',
      can_manage_group: { direct_members: [], direct_subgroups: [groupId(t, 'role:moderators')] },
      can_join_group: groupId(t, 'role:members'),
    });
    const g = await listed(r.body.group_id);
    expect(g.can_manage_group).toBe(groupId(t, 'role:moderators'));
    expect(g.can_join_group).toBe(groupId(t, 'role:members'));
  });

  it('refuses guests and callers outside can_create_groups', async () => {
    expect((await create('polonius', { name: 'x' })).body).toEqual(error('BAD_REQUEST', 'Not allowed for guest users'));
    t.server.world.store.updateRealm({ can_create_groups: groupId(t, 'role:administrators') });
    expect((await create('hamlet', { name: 'x' })).body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    expect((await create('iago', { name: 'x' })).status).toBe(200);
  });

  it('refuses bad names with the real wording', async () => {
    expect((await create('hamlet', { name: 'backend' })).body).toEqual(
      error('BAD_REQUEST', "User group 'backend' already exists."),
    );
    expect((await create('hamlet', { name: '  ' })).body).toEqual(
      error('BAD_REQUEST', "User group name can't be empty!"),
    );
    expect((await create('hamlet', { name: 'x'.repeat(101) })).body).toEqual(
      error('BAD_REQUEST', 'User group name cannot exceed 100 characters.'),
    );
    expect((await create('hamlet', { name: 'role:mine' })).body).toEqual(
      error('BAD_REQUEST', "User group name cannot start with 'role:'."),
    );
    expect((await create('hamlet', { name: '@team' })).body).toEqual(
      error('BAD_REQUEST', "User group name cannot start with '@'."),
    );
  });

  it('refuses unknown members, subgroups and disallowed setting values; nothing is stored', async () => {
    const before = t.server.world.store.userGroups.size;
    expect((await create('hamlet', { name: 'a', members: [999] })).body).toEqual(
      error('BAD_REQUEST', 'Invalid user ID: 999'),
    );
    expect((await create('hamlet', { name: 'a', subgroups: [99] })).body).toEqual(
      error('BAD_REQUEST', 'Invalid user group ID: 99'),
    );
    // support is deactivated: it may not become a subgroup (the real server's lookup refuses it).
    expect((await create('hamlet', { name: 'a', subgroups: [groupId(t, 'support')] })).body).toEqual(
      error('BAD_REQUEST', 'User group is deactivated.'),
    );
    expect((await create('hamlet', { name: 'a', can_manage_group: groupId(t, 'role:everyone') })).body).toEqual(
      error('BAD_REQUEST', "'can_manage_group' setting cannot be set to 'role:everyone' group."),
    );
    expect((await create('hamlet', { name: 'a', can_mention_group: groupId(t, 'role:internet') })).body).toEqual(
      error('BAD_REQUEST', "'can_mention_group' setting cannot be set to 'role:internet' group."),
    );
    expect(t.server.world.store.userGroups.size).toBe(before);
  });
});
