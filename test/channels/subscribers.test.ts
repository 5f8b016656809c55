// GET /streams/{stream_id}/members: the active subscribers, for those who may see the channel.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { streamId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const expected = (stream: number) =>
  t.server.world.store.subscriptions
    .filter((s) => s.stream_id === stream && t.server.world.store.users.get(s.user_id)!.is_active)
    .map((s) => s.user_id)
    .sort((a, b) => a - b);

describe('GET /streams/{stream_id}/members', () => {
  it('lists the subscribers of a public channel and follows a new subscription', async () => {
    const verona = streamId(t, 'Verona');
    let r = await t.as('othello').get(`/streams/${verona}/members`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', subscribers: expected(verona) });
    const newcomer = ['prospero', 'aaron', 'cordelia']
      .map((w) => t.user(w).user_id)
      .find((u) => !expected(verona).includes(u))!;
    await t.as('iago').post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'Verona' }]),
      principals: JSON.stringify([newcomer]),
    });
    r = await t.as('othello').get(`/streams/${verona}/members`);
    expect(r.body.subscribers).toContain(newcomer);
  });

  it('shows a private channel to administrators but not to members outside it', async () => {
    const core = streamId(t, 'core team');
    const outsider = ['othello', 'cordelia', 'prospero', 'aaron'].find(
      (w) => !expected(core).includes(t.user(w).user_id),
    )!;
    expect((await t.as(outsider).get(`/streams/${core}/members`)).body).toEqual(
      error('BAD_REQUEST', 'Invalid channel ID'),
    );
    expect((await t.as('iago').get(`/streams/${core}/members`)).body.subscribers).toEqual(expected(core));
    expect((await t.as('iago').get('/streams/9999/members')).body).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
  });
});
