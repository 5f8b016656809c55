// POST /users/{user_id}/reactivate: administrators (or a bot's owner) only; the user counts again
// as a subscriber and a group member, which other users learn through their queues.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
const ok = { result: 'success', msg: '' };

describe('POST /users/{user_id}/reactivate', () => {
  it('is refused to members and moderators', async () => {
    for (const who of ['othello', 'shiva']) {
      const r = await t.as(who).post(`/users/${id('ariel')}/reactivate`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', 'Insufficient permission'));
    }
    expect((await t.as('othello').get(`/users/${id('ariel')}`)).body.user.is_active).toBe(false);
  });

  it('does not find unknown users', async () => {
    expect((await t.as('iago').post('/users/9999/reactivate')).body).toEqual(error('BAD_REQUEST', 'No such user'));
  });

  it('brings a user back: credentials work, and others see them active, subscribed and in their groups', async () => {
    const hamlet = id('hamlet');
    await t.as('iago').delete(`/users/${hamlet}`);
    const queue = await registerQueue(t, 'othello', ['realm_user', 'subscription', 'user_group']);
    const r = await t.as('iago').post(`/users/${hamlet}/reactivate`);
    expect(r.body).toEqual(ok);
    expect((await t.as('hamlet').get('/users/me')).status).toBe(200);
    expect((await t.as('othello').get(`/users/${hamlet}`)).body.user.is_active).toBe(true);

    const events = await eventsOf(t, 'othello', queue);
    expect(events[0]).toMatchObject({ type: 'realm_user', op: 'update', person: { user_id: hamlet, is_active: true } });
    const store = t.server.world.store;
    const channels = store.subscriptions
      .filter((s) => s.user_id === hamlet)
      .map((s) => s.stream_id)
      .filter((sid) => !store.streams.get(sid)!.invite_only && !store.streams.get(sid)!.is_archived)
      .sort((a, b) => a - b);
    const peerAdds = events.filter((e) => e.op === 'peer_add');
    expect(peerAdds.map((e) => e.stream_ids[0])).toEqual(expect.arrayContaining(channels));
    expect(peerAdds.every((e) => e.user_ids.length === 1 && e.user_ids[0] === hamlet)).toBe(true);
    const groups = store.userGroups
      .filter((g) => g.direct_members.includes(hamlet))
      .map((g) => g.id)
      .sort((a, b) => a - b);
    expect(events.filter((e) => e.type === 'user_group').map((e) => [e.op, e.group_id, e.user_ids])).toEqual(
      groups.map((g) => ['add_members', g, [hamlet]]),
    );
    const members = await t.as('othello').get(`/user_groups/${groups.at(-1)}/members/${hamlet}`);
    expect(members.body.is_user_group_member).toBe(true);
  });

  it("lets a bot's owner reactivate the bot, telling the owner through realm_bot before FL 474", async () => {
    const bot = id('hamlet-bot');
    t.server.world.store.users.update(t.user('hamlet-bot'), { is_active: false });
    const queue = await registerQueue(t, 'hamlet', ['realm_bot']);
    const oldQueue = (
      await t
        .as('hamlet', { 'X-Mock-Feature-Level': '473' })
        .post('/register', { event_types: ['realm_bot'], fetch_event_types: [] })
    ).body.queue_id;
    expect((await t.as('hamlet').post(`/users/${bot}/reactivate`)).body).toEqual(ok);
    expect((await eventsOf(t, 'hamlet', oldQueue)).map(({ id: _i, ...e }) => e)).toEqual([
      { type: 'realm_bot', op: 'update', bot: { user_id: bot, is_active: true } },
    ]);
    // From FL 474 bot objects have no is_active: the change reaches clients as realm_user only.
    expect(await eventsOf(t, 'hamlet', queue)).toEqual([]);
    expect((await t.as('othello').post(`/users/${bot}/reactivate`)).body).toEqual(
      error('BAD_REQUEST', 'Insufficient permission'),
    );
  });

  it('refuses a bot whose name an active account took meanwhile', async () => {
    const store = t.server.world.store;
    store.users.update(t.user('hamlet-bot'), { is_active: false });
    store.users.update(t.user('othello'), { full_name: "Hamlet's Bot" });
    expect((await t.as('iago').post(`/users/${id('hamlet-bot')}/reactivate`)).body).toEqual(
      error(
        'BAD_REQUEST',
        'There is already an active bot named "Hamlet\'s Bot" in this organization. To reactivate this bot, you must rename or deactivate the other one first.',
      ),
    );
    expect(t.user('hamlet-bot').is_active).toBe(false);
  });
});
