// GET /user_groups/{id}/subgroups: nested groups at any depth or only direct ones, not for guests.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { groupId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

describe('GET /user_groups/{user_group_id}/subgroups', () => {
  it('lists nested groups at any depth, or the direct ones only', async () => {
    // leadership contains backend, which contains hamletcharacters.
    const leadership = groupId(t, 'leadership');
    let r = await t.as('othello').get(`/user_groups/${leadership}/subgroups`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      subgroups: [groupId(t, 'hamletcharacters'), groupId(t, 'backend')].sort((a, b) => a - b),
    });
    r = await t.as('othello').get(`/user_groups/${leadership}/subgroups`, { direct_subgroup_only: true });
    expect(r.body.subgroups).toEqual([groupId(t, 'backend')]);
    r = await t.as('othello').get(`/user_groups/${groupId(t, 'hamletcharacters')}/subgroups`);
    expect(r.body.subgroups).toEqual([]);
  });

  it('refuses guests and unknown groups', async () => {
    let r = await t.as('polonius').get(`/user_groups/${groupId(t, 'leadership')}/subgroups`);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Not allowed for guest users'));
    r = await t.as('othello').get('/user_groups/9999/subgroups');
    expect(r.body).toEqual(error('BAD_REQUEST', 'Invalid user group'));
  });
});
