// GET /user_groups/{id}/members: members through subgroups or direct only, deactivated users
// left out from FL 303, any group readable (system and deactivated ones too), guests refused.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { groupId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const id = (who: string) => t.user(who).user_id;
const ids = (...who: string[]) => who.map(id).sort((a, b) => a - b);
const members = (who: string, group: number, params: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  t.as(who, headers).get(`/user_groups/${group}/members`, params);

describe('GET /user_groups/{id}/members', () => {
  it('lists members of the group and of its subgroups at any depth, or only the direct ones', async () => {
    // leadership: Desdemona, with backend (Othello, Prospero) which holds hamletcharacters (Hamlet, Cordelia).
    const leadership = groupId(t, 'leadership');
    expect((await members('hamlet', leadership)).body).toEqual({
      ...ok,
      members: ids('desdemona', 'othello', 'prospero', 'hamlet', 'cordelia'),
    });
    expect((await members('hamlet', leadership, { direct_member_only: true })).body).toEqual({
      ...ok,
      members: ids('desdemona'),
    });
  });

  it('reads system groups (role groups nest the higher roles) and deactivated groups', async () => {
    const moderators = groupId(t, 'role:moderators');
    expect((await members('othello', moderators)).body).toEqual({ ...ok, members: ids('desdemona', 'iago', 'shiva') });
    expect((await members('othello', groupId(t, 'support'))).body).toEqual({ ...ok, members: ids('aaron') });
  });

  it('leaves deactivated users out from FL 303 and lists them before', async () => {
    const backend = groupId(t, 'backend');
    expect((await t.as('iago').delete(`/users/${id('prospero')}`)).status).toBe(200);
    expect((await members('hamlet', backend, { direct_member_only: true })).body).toEqual({
      ...ok,
      members: ids('othello'),
    });
    const old = await members('hamlet', backend, { direct_member_only: true }, { 'X-Mock-Feature-Level': '302' });
    expect(old.body).toEqual({ ...ok, members: ids('othello', 'prospero') });
  });

  it('answers a change of membership at once', async () => {
    const hamletcharacters = groupId(t, 'hamletcharacters');
    expect(
      (await t.as('desdemona').post(`/user_groups/${hamletcharacters}/members`, { add: [id('aaron')] })).status,
    ).toBe(200);
    expect((await members('cordelia', hamletcharacters)).body).toEqual({
      ...ok,
      members: ids('hamlet', 'cordelia', 'aaron'),
    });
  });

  it('refuses guests and unknown groups', async () => {
    const r = await members('polonius', groupId(t, 'leadership'));
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Not allowed for guest users'));
    expect((await members('hamlet', 9999)).body).toEqual(error('BAD_REQUEST', 'Invalid user group'));
  });
});
