// Default channel groups: created, renamed, described, filled, emptied and deleted by
// administrators with the real server's checks and wording; every user but guests receives
// default_stream_groups with every group, and register reads the same back.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { error } from '../helpers/errors.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const strip = (events: any[]) => events.map(({ id: _id, ...e }) => e);
const groups = async (who = 'hamlet') =>
  (await t.as(who).post('/register', { fetch_event_types: ['default_stream_groups'] })).body
    .realm_default_stream_groups;
/** Channels are listed by ID (FL 330), sorted by channel name. */
const nameOf = (id: number) => t.server.world.store.streams.get(id)!.name;
const summary = async () => (await groups()).map((g: any) => [g.id, g.name, g.description, g.streams.map(nameOf)]);
const admin = error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
// Fixture: group 1 "Shakespeare" (Verona, Venice); default channels Denmark, Scotland, Verona.

describe('POST /default_stream_groups/create', () => {
  it('creates a group and tells every user but guests', async () => {
    const hamlet = await registerQueue(t, 'hamlet', ['default_stream_groups']);
    const polonius = await registerQueue(t, 'polonius', ['default_stream_groups']);
    const r = await t.as('iago').post('/default_stream_groups/create', {
      group_name: 'Classics',
      description: 'Old places',
      stream_names: JSON.stringify(['Rome', 'Venice']),
    });
    expect(r.body).toEqual(ok);
    expect(await summary()).toEqual([
      [2, 'Classics', 'Old places', ['Rome', 'Venice']],
      [1, 'Shakespeare', 'Channels about the plays', ['Venice', 'Verona']],
    ]);
    expect(await groups('polonius')).toEqual([]);
    expect(strip(await eventsOf(t, 'hamlet', hamlet))).toEqual([
      { type: 'default_stream_groups', default_stream_groups: await groups() },
    ]);
    expect(await eventsOf(t, 'polonius', polonius)).toEqual([]);
  });

  it('refuses what the real server refuses, and members', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ group_name: 'X', description: '', stream_names: ['Atlantis'] }, "Invalid channel name 'Atlantis'"],
      [
        { group_name: 'X', description: '', stream_names: ['Denmark'] },
        "'Denmark' is a default channel and cannot be added to 'X'",
      ],
      [{ group_name: ' ', description: '', stream_names: ['Rome'] }, "Invalid default channel group name ' '"],
      [
        { group_name: 'x'.repeat(61), description: '', stream_names: ['Rome'] },
        'Default channel group name too long (limit: 60 characters)',
      ],
      [
        { group_name: 'Shakespeare', description: '', stream_names: ['Rome'] },
        "Default channel group 'Shakespeare' already exists",
      ],
    ];
    for (const [params, msg] of cases) {
      const r = await t
        .as('iago')
        .post('/default_stream_groups/create', { ...params, stream_names: JSON.stringify(params.stream_names) });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', msg));
    }
    const r = await t
      .as('hamlet')
      .post('/default_stream_groups/create', { group_name: 'X', description: '', stream_names: '["Rome"]' });
    expect(r.body).toEqual(admin);
    expect((await groups()).length).toBe(1);
  });
});

describe('PATCH /default_stream_groups/{group_id}', () => {
  it('renames and describes a group, one event per change', async () => {
    const queue = await registerQueue(t, 'othello', ['default_stream_groups']);
    expect(
      (await t.as('iago').patch('/default_stream_groups/1', { new_group_name: 'Bard', new_description: 'Plays' })).body,
    ).toEqual(ok);
    expect(await summary()).toEqual([[1, 'Bard', 'Plays', ['Venice', 'Verona']]]);
    const events = strip(await eventsOf(t, 'othello', queue));
    expect(events.length).toBe(2);
    expect(events[1]).toEqual({ type: 'default_stream_groups', default_stream_groups: await groups() });
  });

  it('refuses what the real server refuses, and members', async () => {
    expect((await t.as('iago').patch('/default_stream_groups/1', {})).body).toEqual(
      error('BAD_REQUEST', 'You must pass "new_description" or "new_group_name".'),
    );
    expect((await t.as('iago').patch('/default_stream_groups/99', { new_description: 'x' })).body).toEqual(
      error('BAD_REQUEST', "Default channel group with id '99' does not exist."),
    );
    expect((await t.as('iago').patch('/default_stream_groups/1', { new_group_name: 'Shakespeare' })).body).toEqual(
      error('BAD_REQUEST', "This default channel group is already named 'Shakespeare'"),
    );
    expect((await t.as('hamlet').patch('/default_stream_groups/1', { new_description: 'x' })).body).toEqual(admin);
    expect(await summary()).toEqual([[1, 'Shakespeare', 'Channels about the plays', ['Venice', 'Verona']]]);
  });
});

describe('PATCH /default_stream_groups/{group_id}/streams and DELETE', () => {
  it('adds and removes channels, then deletes the group', async () => {
    const queue = await registerQueue(t, 'hamlet', ['default_stream_groups']);
    expect(
      (await t.as('iago').patch('/default_stream_groups/1/streams', { op: 'add', stream_names: '["Rome"]' })).body,
    ).toEqual(ok);
    expect(
      (await t.as('iago').patch('/default_stream_groups/1/streams', { op: 'remove', stream_names: '["Venice"]' })).body,
    ).toEqual(ok);
    expect(await summary()).toEqual([[1, 'Shakespeare', 'Channels about the plays', ['Rome', 'Verona']]]);
    expect((await t.as('hamlet').delete('/default_stream_groups/1')).body).toEqual(admin);
    expect((await t.as('iago').delete('/default_stream_groups/1')).body).toEqual(ok);
    expect(await groups()).toEqual([]);
    const events = strip(await eventsOf(t, 'hamlet', queue));
    expect(events.map((e) => e.default_stream_groups.length)).toEqual([1, 1, 0]);
  });

  it('refuses what the real server refuses', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { op: 'add', stream_names: ['Venice'] },
        "Channel 'Venice' is already present in default channel group 'Shakespeare'",
      ],
      [{ op: 'add', stream_names: ['Denmark'] }, "'Denmark' is a default channel and cannot be added to 'Shakespeare'"],
      [
        { op: 'remove', stream_names: ['Rome'] },
        "Channel 'Rome' is not present in default channel group 'Shakespeare'",
      ],
      [{ op: 'swap', stream_names: ['Rome'] }, 'Invalid value for "op". Specify one of "add" or "remove".'],
    ];
    for (const [params, msg] of cases) {
      const r = await t
        .as('iago')
        .patch('/default_stream_groups/1/streams', { ...params, stream_names: JSON.stringify(params.stream_names) });
      expect(r.body).toEqual(error('BAD_REQUEST', msg));
    }
    expect((await t.as('iago').delete('/default_stream_groups/99')).body).toEqual(
      error('BAD_REQUEST', "Default channel group with id '99' does not exist."),
    );
    expect(
      (await t.as('hamlet').patch('/default_stream_groups/1/streams', { op: 'add', stream_names: '["Rome"]' })).body,
    ).toEqual(admin);
    expect(await summary()).toEqual([[1, 'Shakespeare', 'Channels about the plays', ['Venice', 'Verona']]]);
  });
});
