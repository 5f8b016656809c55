// POST and DELETE /users/me/muted_users/{muted_user_id}: the real server's errors, the
// `muted_users` event only the muter's queues get, the muted user's messages marked read (those
// already there, announced first, and new ones as they arrive), and what muting leaves alone.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { sendMessage } from '../helpers/messages.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
beforeEach(() => t.server.world.reset());
afterAll(async () => {
  await t.close();
});

const OTHELLO = 5;
const mutedBy = async (who: string) =>
  (await t.as(who).post('/register', { fetch_event_types: JSON.stringify(['muted_users']) })).body.muted_users;
const unreadDms = async (who: string) => {
  const r = await t
    .as(who)
    .post('/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags']) });
  const { pms, huddles } = r.body.unread_msgs;
  return [...pms, ...huddles].flatMap((p: { unread_message_ids: number[] }) => p.unread_message_ids) as number[];
};
const dm = (from: string, to: number[], content = 'psst') =>
  sendMessage(t, from, { type: 'private', to: JSON.stringify(to), content });
const flagsOf = async (who: string, id: number) =>
  (await t.as(who).get(`/messages/${id}`)).body.message.flags as string[];

describe('muting a user', () => {
  it('adds the user with the time of muting, tells only the muter, and reads back', async () => {
    t.server.clock.freeze();
    t.server.clock.set(1_800_000_000_000);
    const hamlet = await registerQueue(t, 'hamlet', ['muted_users']);
    const othello = await registerQueue(t, 'othello', ['muted_users']);
    const r = await t.as('hamlet').post(`/users/me/muted_users/${OTHELLO}`);
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const expected = [
      { id: 9, timestamp: 1790000000 },
      { id: OTHELLO, timestamp: 1_800_000_000 },
    ];
    expect(await mutedBy('hamlet')).toEqual(expected);
    expect(await eventsOf(t, 'hamlet', hamlet)).toEqual([{ id: 0, type: 'muted_users', muted_users: expected }]);
    expect(await eventsOf(t, 'othello', othello)).toEqual([]);
  });

  it("marks the muted user's unread messages read, announcing them before the mute", async () => {
    const first = await dm('othello', [4]);
    const second = await dm('othello', [4, 7]);
    const other = await dm('cordelia', [4]);
    expect(await unreadDms('hamlet')).toEqual(expect.arrayContaining([first, other]));
    const queue = await registerQueue(t, 'hamlet', ['update_message_flags', 'muted_users']);
    await t.as('hamlet').post(`/users/me/muted_users/${OTHELLO}`);
    const events = await eventsOf(t, 'hamlet', queue);
    expect(events.map((e) => e.type)).toEqual(['update_message_flags', 'muted_users']);
    expect(events[0]).toMatchObject({ op: 'add', operation: 'add', flag: 'read', all: false });
    expect(events[0].messages).toEqual(expect.arrayContaining([first, second]));
    const unread = await unreadDms('hamlet');
    expect(unread).toContain(other);
    expect(unread).not.toContain(first);
    // Prospero muted nobody: the group message stays unread for him.
    expect(await unreadDms('prospero')).toContain(second);
  });

  it("gives the muter the muted user's new messages already read, and nobody else", async () => {
    await t.as('hamlet').post(`/users/me/muted_users/${OTHELLO}`);
    const hamlet = await registerQueue(t, 'hamlet', ['message']);
    const id = await dm('othello', [4, 7], 'hello @**King Hamlet**');
    const [event] = await eventsOf(t, 'hamlet', hamlet);
    expect(event.flags).toEqual(['read', 'mentioned']);
    expect(await flagsOf('prospero', id)).not.toContain('read');
    expect(await unreadDms('hamlet')).not.toContain(id);
    expect(await unreadDms('prospero')).toContain(id);
  });

  it('mutes bots, system bots and deactivated users too', async () => {
    for (const id of [12, 13, 10]) expect((await t.as('hamlet').post(`/users/me/muted_users/${id}`)).status).toBe(200);
    expect((await mutedBy('hamlet')).map((m: { id: number }) => m.id)).toEqual([9, 12, 13, 10]);
  });

  it('refuses muting oneself, an unknown user and a muted one, changing nothing', async () => {
    expectError(await t.as('hamlet').post('/users/me/muted_users/4'), 400, 'BAD_REQUEST', 'Cannot mute self');
    expectError(await t.as('hamlet').post('/users/me/muted_users/9999'), 400, 'BAD_REQUEST', 'No such user');
    expectError(await t.as('hamlet').post('/users/me/muted_users/9'), 400, 'BAD_REQUEST', 'User already muted');
    expect(await mutedBy('hamlet')).toEqual([{ id: 9, timestamp: 1790000000 }]);
  });

  it('does not exist below feature level 48', async () => {
    const r = await t.as('hamlet', { 'X-Mock-Feature-Level': '47' }).post(`/users/me/muted_users/${OTHELLO}`);
    expect(r.status).toBe(404);
  });

  it('still delivers typing notifications from the muted user, as the real server does (clients hide them)', async () => {
    await t.as('hamlet').post(`/users/me/muted_users/${OTHELLO}`);
    const queue = await registerQueue(t, 'hamlet', ['typing']);
    expect((await t.as('othello').post('/typing', { op: 'start', to: JSON.stringify([4]) })).status).toBe(200);
    const events = await eventsOf(t, 'hamlet', queue);
    expect(events).toMatchObject([{ type: 'typing', op: 'start', sender: { user_id: OTHELLO } }]);
  });
});

describe('unmuting a user', () => {
  it('removes the user and tells the muter; what muting read stays read, new messages are unread again', async () => {
    await t.as('hamlet').post(`/users/me/muted_users/${OTHELLO}`);
    const read = await dm('othello', [4]);
    const queue = await registerQueue(t, 'hamlet', ['muted_users', 'update_message_flags']);
    expect((await t.as('hamlet').delete(`/users/me/muted_users/${OTHELLO}`)).body).toEqual({
      result: 'success',
      msg: '',
    });
    expect(await eventsOf(t, 'hamlet', queue)).toEqual([
      { id: 0, type: 'muted_users', muted_users: [{ id: 9, timestamp: 1790000000 }] },
    ]);
    expect(await mutedBy('hamlet')).toEqual([{ id: 9, timestamp: 1790000000 }]);
    const unread = await dm('othello', [4]);
    const dms = await unreadDms('hamlet');
    expect(dms).toContain(unread);
    expect(dms).not.toContain(read);
  });

  it('refuses an unknown user and one not muted (oneself included)', async () => {
    expectError(await t.as('hamlet').delete('/users/me/muted_users/9999'), 400, 'BAD_REQUEST', 'No such user');
    expectError(
      await t.as('hamlet').delete(`/users/me/muted_users/${OTHELLO}`),
      400,
      'BAD_REQUEST',
      'User is not muted',
    );
    expectError(await t.as('hamlet').delete('/users/me/muted_users/4'), 400, 'BAD_REQUEST', 'User is not muted');
  });
});
