// GET /users/{user_id}/subscriptions/{stream_id}: whether a user is subscribed, for channels the
// caller can read (administrators: private ones too).
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { streamId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
const status = (who: string, user: number, stream: number) => t.as(who).get(`/users/${user}/subscriptions/${stream}`);

describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
  it('answers for a public channel, and follows a subscription change', async () => {
    const denmark = streamId(t, 'Denmark');
    const before = (await status('othello', id('hamlet'), denmark)).body.is_subscribed;
    await t.as('hamlet')[before ? 'delete' : 'post']('/users/me/subscriptions', {
      subscriptions: JSON.stringify(before ? ['Denmark'] : [{ name: 'Denmark' }]),
    });
    const r = await status('othello', id('hamlet'), denmark);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', is_subscribed: !before });
  });

  it('lets an administrator ask about a private channel a member may not see', async () => {
    const core = streamId(t, 'core team');
    const subscribed = t.server.world.store.subscriptions.filter((s) => s.stream_id === core).map((s) => s.user_id);
    const outsider = ['othello', 'cordelia', 'prospero', 'aaron'].find((w) => !subscribed.includes(id(w)))!;
    expect((await status(outsider, subscribed[0], core)).body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
    const admin = (await status('iago', subscribed[0], core)).body;
    expect(admin).toEqual({ result: 'success', msg: '', is_subscribed: true });
  });

  it('refuses unknown channels, bots and deactivated users', async () => {
    expect((await status('othello', id('hamlet'), 9999)).body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
    expect((await status('othello', id('hamlet-bot'), streamId(t, 'Denmark'))).body).toEqual(
      error('BAD_REQUEST', 'No such user'),
    );
    expect((await status('othello', id('ariel'), streamId(t, 'Denmark'))).body).toEqual(
      error('BAD_REQUEST', 'User is deactivated'),
    );
  });
});
