// GET /user_groups: the organization's groups, system groups included.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const store = () => t.server.world.store;
const id = (who: string) => t.user(who).user_id;

describe('GET /user_groups', () => {
  it('lists the active groups by ID, system groups included', async () => {
    const r = await t.as('hamlet').get('/user_groups');
    expect(r.status).toBe(200);
    const active = store()
      .userGroups.filter((g) => !g.deactivated)
      .map((g) => g.id)
      .sort((a, b) => a - b);
    expect(r.body.user_groups.map((g: any) => g.id)).toEqual(active);
    const hamletcharacters = r.body.user_groups.find((g: any) => g.name === 'hamletcharacters');
    expect(hamletcharacters).toMatchObject({
      members: [id('hamlet'), id('cordelia')],
      direct_subgroup_ids: [],
      is_system_group: false,
      deactivated: false,
    });
  });

  it('adds deactivated groups with include_deactivated_groups', async () => {
    const r = await t.as('hamlet').get('/user_groups', { include_deactivated_groups: true });
    expect(r.body.user_groups.find((g: any) => g.name === 'support')).toMatchObject({ deactivated: true });
    expect(r.body.user_groups).toHaveLength(store().userGroups.size);
  });

  it('leaves deactivated users out of members', async () => {
    const group = store().userGroups.find((g) => g.name === 'hamletcharacters')!;
    store().userGroups.update(group, { direct_members: [...group.direct_members, id('ariel')] });
    const r = await t.as('hamlet').get('/user_groups');
    expect(r.body.user_groups.find((g: any) => g.id === group.id).members).toEqual([id('hamlet'), id('cordelia')]);
  });

  it('refuses guests', async () => {
    expectError(await t.as('polonius').get('/user_groups'), 400, 'BAD_REQUEST', 'Not allowed for guest users');
  });
});
