// DELETE /users/me/subscriptions: unsubscribing oneself and others, unknown channels, the
// permission to remove subscribers, and the events.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue, watchEvents } from '../helpers/events.js';
import { streamId } from '../helpers/fixture-rows.js';
import { subscriptionOf } from '../helpers/read-back.js';
import { systemGroupId } from '../../src/domain/group-settings/membership.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const store = () => t.server.world.store;
const id = (who: string) => t.user(who).user_id;
const unsubscribe = (who: string, params: Record<string, unknown>) =>
  t.as(who).delete('/users/me/subscriptions', params);
const isSubscribed = (who: string, name: string) => !!store().subscriptions.get(`${id(who)}:${streamId(t, name)}`);

describe('unsubscribing oneself', () => {
  it('removes the subscription and reports channels the caller was not subscribed to', async () => {
    const r = await unsubscribe('othello', { subscriptions: ['Denmark', 'Rome'] });
    expect(r.body).toEqual({ result: 'success', msg: '', removed: ['Denmark'], not_removed: ['Rome'] });
    expect(await subscriptionOf(t.as('othello'), streamId(t, 'Denmark'))).toBeUndefined();
  });

  it('sends subscription remove to the user and peer_remove to the others who can see the channel', async () => {
    const othelloQueue = await registerQueue(t, 'othello', ['subscription']);
    const hamletQueue = await registerQueue(t, 'hamlet', ['subscription']);
    await unsubscribe('othello', { subscriptions: ['Denmark'] });
    expect(await eventsOf(t, 'othello', othelloQueue)).toEqual([
      expect.objectContaining({
        type: 'subscription',
        op: 'remove',
        subscriptions: [{ name: 'Denmark', stream_id: streamId(t, 'Denmark') }],
      }),
    ]);
    expect(await eventsOf(t, 'hamlet', hamletQueue)).toEqual([
      expect.objectContaining({
        type: 'subscription',
        op: 'peer_remove',
        stream_ids: [streamId(t, 'Denmark')],
        user_ids: [id('othello')],
      }),
    ]);
  });

  it('tells a user who can no longer see a private channel that it is gone for them', async () => {
    const queue = await registerQueue(t, 'hamlet', ['stream']);
    const older = (
      await t
        .as('hamlet', { 'X-Mock-Feature-Level': '342' })
        .post('/register', { event_types: ['stream'], fetch_event_types: [] })
    ).body.queue_id;
    const seen = watchEvents(t);
    await unsubscribe('hamlet', { subscriptions: ['core team'] });
    const forHamlet = seen.filter((s) => s.users.includes(id('hamlet'))).map((s) => s.event);
    expect(forHamlet.map((e) => `${e.type}/${e.op}`)).toEqual(['subscription/remove', 'stream/delete']);
    const core = streamId(t, 'core team');
    expect(forHamlet[1]).toEqual({ type: 'stream', op: 'delete', streams: [{ stream_id: core }], stream_ids: [core] });
    // As the queue gets it (no internal for_archiving), and before FL 343 the whole channel without stream_ids.
    expect(await eventsOf(t, 'hamlet', queue)).toEqual([{ ...forHamlet[1], id: 0 }]);
    const [old] = await eventsOf(t, 'hamlet', older);
    expect(Object.keys(old).sort()).toEqual(['id', 'op', 'streams', 'type']);
    expect(old.streams).toEqual([expect.objectContaining({ stream_id: core, name: 'core team', invite_only: true })]);
    const peers = seen.find((s) => s.event.op === 'peer_remove')!;
    expect(peers.users).not.toContain(id('othello'));
    expect(peers.users).toEqual(expect.arrayContaining([id('desdemona'), id('iago')]));
  });

  it('takes its parameters from the query string too, as zulip-js sends them', async () => {
    const r = await t
      .as('othello')
      .call('DELETE', '/users/me/subscriptions', { subscriptions: ['Denmark'] }, { in: 'query' });
    expect(r.body.removed).toEqual(['Denmark']);
  });

  it('lets guests unsubscribe themselves', async () => {
    expect((await unsubscribe('polonius', { subscriptions: ['Verona'] })).body.removed).toEqual(['Verona']);
    expect(isSubscribed('polonius', 'Verona')).toBe(false);
  });

  it('refuses names of channels that do not exist, removing nothing', async () => {
    expectError(
      await unsubscribe('othello', { subscriptions: ['Denmark', 'Atlantis', 'Lemuria'] }),
      400,
      'BAD_REQUEST',
      'Channel(s) (Atlantis, Lemuria) do not exist',
    );
    expect(isSubscribed('othello', 'Denmark')).toBe(true);
    expectError(await unsubscribe('othello', {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'subscriptions' argument");
  });
});

describe('unsubscribing others', () => {
  it('is refused to members without the permission to remove subscribers', async () => {
    expectError(
      await unsubscribe('hamlet', { subscriptions: ['Denmark'], principals: [id('othello')] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect(isSubscribed('othello', 'Denmark')).toBe(true);
  });

  it('is allowed to administrators, by ID or by email', async () => {
    expect(
      (await unsubscribe('iago', { subscriptions: ['Denmark'], principals: [id('othello')] })).body.removed,
    ).toEqual(['Denmark']);
    expect(
      (
        await unsubscribe('iago', {
          subscriptions: ['Scotland'],
          principals: ['othello@zulip.com', 'cordelia@zulip.com'],
        })
      ).body.removed,
    ).toEqual(['Scotland', 'Scotland']);
    expect(isSubscribed('othello', 'Denmark') || isSubscribed('cordelia', 'Scotland')).toBe(false);
  });

  it("is allowed for one's own bots", async () => {
    const r = await unsubscribe('hamlet', { subscriptions: ['Denmark'], principals: [id('hamlet-bot')] });
    expect(r.body.removed).toEqual(['Denmark']);
    expect(isSubscribed('hamlet-bot', 'Denmark')).toBe(false);
  });

  it('is allowed to those who administer the channel or hold its can_remove_subscribers_group', async () => {
    // hamlet administers Rome.
    expect(
      (await unsubscribe('hamlet', { subscriptions: ['Rome'], principals: [id('cordelia')] })).body.removed,
    ).toEqual(['Rome']);
    const denmark = store().streams.get(streamId(t, 'Denmark'))!;
    store().streams.update(denmark, { can_remove_subscribers_group: systemGroupId(store(), 'role:members') });
    expect(
      (await unsubscribe('hamlet', { subscriptions: ['Denmark'], principals: [id('othello')] })).body.removed,
    ).toEqual(['Denmark']);
    // Guests never hold it.
    expectError(
      await unsubscribe('polonius', { subscriptions: ['Verona'], principals: [id('othello')] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
  });

  it('checks the permission before reporting unknown channels', async () => {
    expectError(
      await unsubscribe('hamlet', { subscriptions: ['Denmark', 'Atlantis'], principals: [id('othello')] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
  });

  it('refuses unknown principals', async () => {
    expectError(
      await unsubscribe('iago', { subscriptions: ['Denmark'], principals: [9999] }),
      400,
      'BAD_REQUEST',
      'No such user',
    );
  });
});
