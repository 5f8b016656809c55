// GET /user_groups/{id}/members/{user_id}: direct and nested membership, deactivated users,
// bots, and the errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { groupId } from '../helpers/fixture-rows.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const id = (who: string) => t.user(who).user_id;
const ask = (group: number, user: number, params: Record<string, unknown> = {}, as = 'iago') =>
  t.as(as).get(`/user_groups/${group}/members/${user}`, params);
const answer = (is_user_group_member: boolean) => ({ result: 'success', msg: '', is_user_group_member });

describe('GET /user_groups/{id}/members/{user_id}', () => {
  it('is true for a direct member and false for a non-member', async () => {
    expect((await ask(groupId(t, 'hamletcharacters'), id('hamlet'))).body).toEqual(answer(true));
    expect((await ask(groupId(t, 'hamletcharacters'), id('othello'))).body).toEqual(answer(false));
  });

  it('counts members of nested subgroups unless direct_member_only is true', async () => {
    // leadership > backend > hamletcharacters > hamlet
    expect((await ask(groupId(t, 'leadership'), id('hamlet'))).body).toEqual(answer(true));
    expect((await ask(groupId(t, 'leadership'), id('hamlet'), { direct_member_only: false })).body).toEqual(
      answer(true),
    );
    expect((await ask(groupId(t, 'leadership'), id('hamlet'), { direct_member_only: true })).body).toEqual(
      answer(false),
    );
    expect((await ask(groupId(t, 'leadership'), id('desdemona'), { direct_member_only: true })).body).toEqual(
      answer(true),
    );
    // System groups nest the same way: the owner is in role:members through role:administrators.
    expect((await ask(groupId(t, 'role:members'), id('desdemona'))).body).toEqual(answer(true));
    expect((await ask(groupId(t, 'role:members'), id('polonius'))).body).toEqual(answer(false));
  });

  it('never reports a deactivated user as a member, even a direct one', async () => {
    const store = t.server.world.store;
    const group = store.userGroups.get(groupId(t, 'hamletcharacters'))!;
    store.userGroups.update(group, { direct_members: [...group.direct_members, id('ariel')] });
    expect((await ask(group.id, id('ariel'), { direct_member_only: true })).body).toEqual(answer(false));
    expect((await ask(group.id, id('ariel'))).body).toEqual(answer(false));
  });

  it('can be asked about bots', async () => {
    expect((await ask(groupId(t, 'role:members'), id('hamlet-bot'), { direct_member_only: true })).body).toEqual(
      answer(true),
    );
    expect((await ask(groupId(t, 'role:administrators'), id('iago-bot'))).body).toEqual(answer(false));
  });

  it('reads deactivated groups too, and may be called by a bot', async () => {
    expect((await ask(groupId(t, 'support'), id('aaron'), {}, 'iago-bot')).body).toEqual(answer(true));
  });

  it('answers "Invalid user group" and "No such user" for unknown IDs', async () => {
    let r = await ask(999, id('hamlet'));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: 'Invalid user group', code: 'BAD_REQUEST' });
    r = await ask(groupId(t, 'backend'), 9999);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
  });

  it('is refused to guests and allowed to members', async () => {
    const r = await ask(groupId(t, 'backend'), id('othello'), {}, 'polonius');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: 'Not allowed for guest users', code: 'BAD_REQUEST' });
    expect((await ask(groupId(t, 'backend'), id('othello'), {}, 'hamlet')).body).toEqual(answer(true));
  });
});
