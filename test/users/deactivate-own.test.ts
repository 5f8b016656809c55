// DELETE /users/me: anyone may deactivate their own account, except the organization's only
// account and its only owner (CANNOT_DEACTIVATE_LAST_USER with entity and is_last_owner); the
// account's bots go first, everyone hears of it, and the API key then answers 401.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const id = (who: string) => t.user(who).user_id;

describe('DELETE /users/me', () => {
  it('deactivates a member: others get realm_user update, the API key answers 401 and the state reads back', async () => {
    const queue = await registerQueue(t, 'othello', ['realm_user', 'realm_bot']);
    expect((await t.as('cordelia').delete('/users/me')).body).toEqual(ok);
    expect(await eventsOf(t, 'othello', queue)).toEqual([
      expect.objectContaining({
        type: 'realm_user',
        op: 'update',
        person: { user_id: id('cordelia'), is_active: false },
      }),
    ]);
    const me = await t.as('cordelia').get('/users/me');
    expect(me.status).toBe(401);
    expect(me.body).toEqual(error('UNAUTHORIZED', 'Account is deactivated'));
    expect((await t.as('othello').get(`/users/${id('cordelia')}`)).body.user).toMatchObject({
      user_id: id('cordelia'),
      is_active: false,
    });
  });

  it("deactivates the caller's bots first; others hear of each before the caller (and, before FL 474, as realm_bot too)", async () => {
    const bot = id('hamlet-bot');
    const queue = await registerQueue(t, 'iago', ['realm_user', 'realm_bot']);
    const oldQueue = (
      await t
        .as('iago', { 'X-Mock-Feature-Level': '473' })
        .post('/register', { event_types: ['realm_user', 'realm_bot'], fetch_event_types: [] })
    ).body.queue_id;
    expect((await t.as('hamlet').delete('/users/me')).body).toEqual(ok);
    const events = await eventsOf(t, 'iago', queue);
    expect(events.map((e) => [e.type, e.person?.user_id ?? e.bot?.user_id])).toEqual([
      ['realm_user', bot],
      ['realm_user', id('hamlet')],
    ]);
    const oldEvents = await eventsOf(t, 'iago', oldQueue);
    expect(oldEvents.map((e) => [e.type, e.person?.user_id ?? e.bot?.user_id])).toEqual([
      ['realm_user', bot],
      ['realm_bot', bot],
      ['realm_user', id('hamlet')],
    ]);
    expect(oldEvents[1]).toMatchObject({ op: 'update', bot: { user_id: bot, is_active: false } });
    expect(t.user('hamlet-bot').is_active).toBe(false);
    expect((await t.as('hamlet-bot').get('/users/me')).status).toBe(401);
  });

  it('lets a bot deactivate itself', async () => {
    expect((await t.as('hamlet-bot').delete('/users/me')).body).toEqual(ok);
    expect(t.user('hamlet-bot').is_active).toBe(false);
    expect(t.user('hamlet').is_active).toBe(true);
  });

  it('refuses the only owner with is_last_owner true, and lets an owner go once there is another', async () => {
    const r = await t.as('desdemona').delete('/users/me');
    expect(r.status).toBe(400);
    expect(r.body).toEqual(
      error('CANNOT_DEACTIVATE_LAST_USER', 'Cannot deactivate the only organization owner.', {
        entity: 'organization owner',
        is_last_owner: true,
      }),
    );
    expect(t.user('desdemona').is_active).toBe(true);
    expect((await t.as('desdemona').patch(`/users/${id('iago')}`, { role: 100 })).status).toBe(200);
    expect((await t.as('desdemona').delete('/users/me')).body).toEqual(ok);
    expect((await t.as('iago').delete('/users/me')).body).toEqual(
      error('CANNOT_DEACTIVATE_LAST_USER', 'Cannot deactivate the only organization owner.', {
        entity: 'organization owner',
        is_last_owner: true,
      }),
    );
  });

  it('refuses the only active account with is_last_owner false (system bots do not count)', async () => {
    const store = t.server.world.store;
    for (const u of store.users.filter((x) => x.is_active && !x.is_system_bot && x.user_id !== id('hamlet')))
      store.users.update(u, { is_active: false });
    const r = await t.as('hamlet').delete('/users/me');
    expect(r.status).toBe(400);
    expect(r.body).toEqual(
      error('CANNOT_DEACTIVATE_LAST_USER', 'Cannot deactivate the only user.', {
        entity: 'user',
        is_last_owner: false,
      }),
    );
    expect(t.user('hamlet').is_active).toBe(true);
  });
});
