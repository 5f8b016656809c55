// PATCH /users/me/subscriptions: the caller's subscribe and unsubscribe in one request, both or
// nothing, with the two operations' answers merged, their wording and their events.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { streamId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const id = (who: string) => t.user(who).user_id;
const change = (who: string, params: Record<string, unknown>, headers?: Record<string, string>) =>
  t.as(who, headers).patch('/users/me/subscriptions', params);
/** The names of the channels the caller is subscribed to, read back through the API. */
const subscribedNames = async (who: string) =>
  ((await t.as(who).get('/users/me/subscriptions')).body.subscriptions as Array<{ name: string }>)
    .map((s) => s.name)
    .sort();

describe('PATCH /users/me/subscriptions', () => {
  it('is gone at 512 (a duplicate of subscribe and unsubscribe), an unknown route as on such a server', async () => {
    const at = (level: number) =>
      change('cordelia', { add: [{ name: 'Elsinore' }] }, { 'X-Mock-Feature-Level': String(level) });
    // The path has other methods at 512, so the answer is 405 rather than 404.
    expect((await at(512)).status).toBe(405);
    expect(await subscribedNames('cordelia')).not.toContain('Elsinore');
    expect((await at(511)).status).toBe(200);
    expect(await subscribedNames('cordelia')).toContain('Elsinore');
  });

  it('subscribes and unsubscribes the caller, answering both, and others see peer_add and peer_remove', async () => {
    const mine = await registerQueue(t, 'cordelia', ['subscription']);
    const peer = await registerQueue(t, 'hamlet', ['subscription']);
    const r = await change('cordelia', { add: [{ name: 'Venice', color: '#abcdef' }], delete: ['Rome', 'Venice '] });
    expect(r.body).toEqual({
      ...ok,
      subscribed: { [String(id('cordelia'))]: ['Venice'] },
      already_subscribed: {},
      removed: ['Rome', 'Venice'],
      not_removed: [],
    });
    expect((await eventsOf(t, 'cordelia', mine)).map((e) => [e.op, e.subscriptions?.map((s: any) => s.name)])).toEqual([
      ['add', ['Venice']],
      ['remove', ['Rome']],
      ['remove', ['Venice']],
    ]);
    expect((await eventsOf(t, 'hamlet', peer)).map((e) => [e.op, e.stream_ids, e.user_ids])).toEqual([
      ['peer_add', [streamId(t, 'Venice')], [id('cordelia')]],
      ['peer_remove', [streamId(t, 'Rome')], [id('cordelia')]],
      ['peer_remove', [streamId(t, 'Venice')], [id('cordelia')]],
    ]);
    expect(await subscribedNames('cordelia')).toEqual(['Denmark', 'Scotland', 'Verona']);
  });

  it('answers already_subscribed and not_removed, and lists every key even for one list', async () => {
    expect((await change('cordelia', { add: [{ name: 'denmark' }] })).body).toEqual({
      ...ok,
      subscribed: {},
      already_subscribed: { [String(id('cordelia'))]: ['Denmark'] },
      removed: [],
      not_removed: [],
    });
    expect((await change('cordelia', { delete: ['Venice'] })).body).toEqual({
      ...ok,
      subscribed: {},
      already_subscribed: {},
      removed: [],
      not_removed: ['Venice'],
    });
  });

  it('creates a channel named in add, which delete may then name', async () => {
    const r = await change('cordelia', { add: [{ name: 'Kyoto', description: 'Japan' }], delete: ['kyoto'] });
    expect(r.body).toEqual({
      ...ok,
      subscribed: { [String(id('cordelia'))]: ['Kyoto'] },
      already_subscribed: {},
      removed: ['Kyoto'],
      not_removed: [],
    });
    expect((await t.as('hamlet').get(`/streams/${streamId(t, 'Kyoto')}`)).body.stream).toMatchObject({
      name: 'Kyoto',
      description: 'Japan',
      invite_only: false,
    });
    expect(await subscribedNames('cordelia')).toEqual(['Denmark', 'Rome', 'Scotland', 'Verona']);
  });

  it('changes nothing and tells nobody when the removal is refused', async () => {
    const queue = await registerQueue(t, 'hamlet', ['subscription', 'stream']);
    const r = await change('cordelia', { add: [{ name: 'Venice' }, { name: 'Kyoto' }], delete: ['Rome', 'nowhere'] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('BAD_REQUEST', 'Channel(s) (nowhere) do not exist'));
    expect(await subscribedNames('cordelia')).toEqual(['Denmark', 'Rome', 'Scotland', 'Verona']);
    expect(t.server.world.store.streams.by('name', 'kyoto')).toBeUndefined();
    expect(await eventsOf(t, 'hamlet', queue)).toEqual([]);
  });

  it("reports the adding's error first, with add in the wording of an item", async () => {
    expect((await change('cordelia', { add: [{ name: 'core team' }], delete: ['nowhere'] })).body).toEqual(
      error('BAD_REQUEST', 'Unable to access channel (core team).'),
    );
    expect((await change('cordelia', { add: [{ name: 'Venice' }, { name: 'Rome', color: 'red' }] })).body).toEqual(
      error('BAD_REQUEST', 'Invalid add[1]: Value error, add.color is not a valid hex color code'),
    );
    expect((await change('cordelia', { add: [{ name: '  ' }] })).body).toEqual(
      error('BAD_REQUEST', "Channel name can't be empty."),
    );
  });

  it('needs one non-empty list, and refuses guests even when they only leave', async () => {
    expect((await change('cordelia', {})).body).toEqual(
      error('BAD_REQUEST', 'Nothing to do. Specify at least one of "add" or "delete".'),
    );
    expect((await change('cordelia', { add: [], delete: [] })).body).toEqual(
      error('BAD_REQUEST', 'Nothing to do. Specify at least one of "add" or "delete".'),
    );
    expect((await change('polonius', { delete: ['Verona'] })).body).toEqual(
      error('BAD_REQUEST', 'Not allowed for guest users'),
    );
    expect(await subscribedNames('polonius')).toEqual(['Verona']);
  });

  it('keys subscribed by email before FL 207', async () => {
    const r = await change('cordelia', { add: [{ name: 'Venice' }] }, { 'X-Mock-Feature-Level': '206' });
    expect(r.body.subscribed).toEqual({ 'cordelia@zulip.com': ['Venice'] });
  });
});
