// Adding and removing default channels: administrators only, the real server's errors (private,
// archived, unknown channels), the list read back through POST /register and the
// default_streams events (IDs of every default channel; guests get none).
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { error } from '../helpers/errors.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const strip = (events: any[]) => events.map(({ id: _id, ...e }) => e);
const defaults = async (who = 'hamlet') =>
  (await t.as(who).post('/register', { fetch_event_types: ['default_streams'] })).body.realm_default_streams;
// Fixture: Denmark 1, Scotland 2, Verona 3 are default; Venice 4 public; core team 6 private; Old Rome 9 archived.

describe('POST /default_streams', () => {
  it('adds a public channel and tells every user but guests', async () => {
    const hamlet = await registerQueue(t, 'hamlet', ['default_streams']);
    const polonius = await registerQueue(t, 'polonius', ['default_streams']);
    expect((await t.as('iago').post('/default_streams', { stream_id: 4 })).body).toEqual(ok);
    expect(await defaults()).toEqual([1, 2, 3, 4]);
    expect(await defaults('polonius')).toEqual([]);
    expect(strip(await eventsOf(t, 'hamlet', hamlet))).toEqual([
      { type: 'default_streams', default_streams: [1, 2, 3, 4] },
    ]);
    expect(await eventsOf(t, 'polonius', polonius)).toEqual([]);
    // New users join it.
    const created = await t
      .as('iago')
      .post('/users', { email: 'newbie@zulip.com', password: 'a long password 123', full_name: 'Newbie' });
    expect(created.status).toBe(200);
    expect(
      t.server.world.store.subscriptions
        .all()
        .filter((s) => s.user_id === created.body.user_id)
        .map((s) => s.stream_id)
        .sort(),
    ).toEqual([1, 2, 3, 4]);
  });

  it('adding a default channel again changes nothing', async () => {
    const hamlet = await registerQueue(t, 'hamlet', ['default_streams']);
    expect((await t.as('iago').post('/default_streams', { stream_id: 1 })).body).toEqual(ok);
    expect(await defaults()).toEqual([1, 2, 3]);
    expect(await eventsOf(t, 'hamlet', hamlet)).toEqual([]);
  });

  it('refuses private, archived and unknown channels', async () => {
    // Iago (subscribed to core team in the fixture) sees it, and it is private.
    const cases: Array<[number, string]> = [
      [6, 'Private channels cannot be made default.'],
      [9, 'Invalid channel ID'],
      [999, 'Invalid channel ID'],
    ];
    for (const [stream_id, msg] of cases) {
      const r = await t.as('iago').post('/default_streams', { stream_id });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', msg));
    }
    expect(await defaults()).toEqual([1, 2, 3]);
  });

  it('is for administrators', async () => {
    const r = await t.as('hamlet').post('/default_streams', { stream_id: 4 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
    expect(await defaults()).toEqual([1, 2, 3]);
  });
});

describe('DELETE /default_streams', () => {
  it('removes a default channel and tells every user but guests', async () => {
    const othello = await registerQueue(t, 'othello', ['default_streams']);
    const polonius = await registerQueue(t, 'polonius', ['default_streams']);
    expect((await t.as('iago').delete('/default_streams', { stream_id: 2 })).body).toEqual(ok);
    expect(await defaults()).toEqual([1, 3]);
    expect(strip(await eventsOf(t, 'othello', othello))).toEqual([
      { type: 'default_streams', default_streams: [1, 3] },
    ]);
    expect(await eventsOf(t, 'polonius', polonius)).toEqual([]);
  });

  it('refuses an unknown channel and members', async () => {
    expect((await t.as('iago').delete('/default_streams', { stream_id: 999 })).body).toEqual(
      error('BAD_REQUEST', 'Invalid channel ID'),
    );
    expect((await t.as('iago').delete('/default_streams', { stream_id: 9 })).body).toEqual(
      error('BAD_REQUEST', 'Invalid channel ID'),
    );
    const r = await t.as('hamlet').delete('/default_streams', { stream_id: 1 });
    expect(r.body).toEqual(error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'));
    expect(await defaults()).toEqual([1, 2, 3]);
  });
});
