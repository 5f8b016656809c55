// Custom profile fields: listed for anyone; created, changed, deleted and reordered by
// administrators with the real server's checks and wording; every change reaches everyone
// (guests too) as a custom_profile_fields event with every field, and reads back the same.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { error } from '../helpers/errors.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const ok = { result: 'success', msg: '' };
const strip = (events: any[]) => events.map(({ id: _id, ...e }) => e);
const fields = async (who = 'hamlet') => (await t.as(who).get('/realm/profile_fields')).body.custom_fields;
const registered = async () =>
  (await t.as('othello').post('/register', { fetch_event_types: ['custom_profile_fields'] })).body
    .custom_profile_fields;
const admin = error('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
const profile = async (who: string) =>
  (await t.as('hamlet').get(`/users/${t.user(who).user_id}`, { include_custom_profile_fields: true })).body.user
    .profile_data;

describe('GET /realm/profile_fields', () => {
  it('lists the fields in display order for any user, as register shows them', async () => {
    const list = await fields('polonius');
    expect(list.map((f: any) => f.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(list[0]).toEqual({
      id: 1,
      name: 'Phone number',
      type: 1,
      hint: '',
      field_data: '',
      order: 1,
      required: false,
      editable_by_user: true,
    });
    expect(list).toEqual(await registered());
  });
});

describe('POST /realm/profile_fields', () => {
  it('creates a list field at the end and tells everyone, guests included', async () => {
    const queue = await registerQueue(t, 'polonius', ['custom_profile_fields']);
    const r = await t.as('iago').post('/realm/profile_fields', {
      name: '  Team ',
      hint: 'Where you work',
      field_type: 3,
      field_data: JSON.stringify({ a: { text: 'Backend', order: '1' } }),
      required: true,
    });
    expect(r.body).toEqual({ ...ok, id: 10 });
    const list = await fields();
    expect(list.at(-1)).toEqual({
      id: 10,
      name: 'Team',
      type: 3,
      hint: 'Where you work',
      field_data: '{"a":{"text":"Backend","order":"1"}}',
      order: 10,
      required: true,
      editable_by_user: true,
    });
    expect(await registered()).toEqual(list);
    expect(strip(await eventsOf(t, 'polonius', queue))).toEqual([{ type: 'custom_profile_fields', fields: list }]);
  });

  it('fills in the name of a known external account', async () => {
    await t.as('iago').delete('/realm/profile_fields/8');
    const r = await t
      .as('iago')
      .post('/realm/profile_fields', { field_type: 7, field_data: JSON.stringify({ subtype: 'github' }) });
    expect(r.status).toBe(200);
    expect((await fields()).at(-1)).toMatchObject({
      id: r.body.id,
      name: 'GitHub username',
      hint: '',
      field_data: '{"subtype":"github"}',
    });
  });

  it('refuses what the real server refuses', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '  ', field_type: 1 }, 'Label cannot be blank.'],
      [{ name: 'x'.repeat(41), field_type: 1 }, 'name is too long (limit: 40 characters)'],
      [{ name: 'Shoe size', hint: 'h'.repeat(81), field_type: 1 }, 'hint is too long (limit: 80 characters)'],
      [{ name: 'Shoe size', field_type: 99 }, 'Invalid field type.'],
      [{ name: 'Phone number', field_type: 1 }, 'A field with that label already exists.'],
      [{ name: 'Teams', field_type: 3, field_data: '{}' }, 'Field must have at least one choice.'],
      [
        { name: 'Account', field_type: 7, field_data: JSON.stringify({ subtype: 'myspace' }) },
        'Invalid external account type',
      ],
      [{ field_type: 7, field_data: JSON.stringify({ subtype: 'github' }) }, 'A field with that label already exists.'],
      // The fixture already shows three fields in the summary.
      [
        { name: 'Shoe size', field_type: 1, display_in_profile_summary: true },
        'Only 2 custom profile fields can be displayed in the profile summary.',
      ],
    ];
    for (const [params, msg] of cases) {
      const r = await t.as('iago').post('/realm/profile_fields', params);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(error('BAD_REQUEST', msg));
    }
    expect((await fields()).length).toBe(9);
  });

  it('is for administrators', async () => {
    const r = await t.as('hamlet').post('/realm/profile_fields', { name: 'Shoe size', field_type: 1 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(admin);
    expect((await fields()).length).toBe(9);
  });
});

describe('PATCH and DELETE /realm/profile_fields/{field_id}', () => {
  it('changes what is passed, and removing an option clears the values that chose it', async () => {
    const queue = await registerQueue(t, 'hamlet', ['custom_profile_fields']);
    expect((await profile('iago'))['4'].value).toBe('1');
    const r = await t.as('iago').patch('/realm/profile_fields/4', {
      name: 'Editor',
      field_data: JSON.stringify({ 0: { text: 'Vim', order: '1' } }),
      required: true,
      editable_by_user: false,
    });
    expect(r.body).toEqual(ok);
    const list = await fields();
    expect(list.find((f: any) => f.id === 4)).toEqual({
      id: 4,
      name: 'Editor',
      type: 3,
      hint: '',
      field_data: '{"0":{"text":"Vim","order":"1"}}',
      order: 4,
      display_in_profile_summary: true,
      required: true,
      editable_by_user: false,
    });
    expect((await profile('iago'))['4']).toBeUndefined();
    expect(strip(await eventsOf(t, 'hamlet', queue))).toEqual([{ type: 'custom_profile_fields', fields: list }]);
  });

  it('refuses unknown fields, taken labels, default external fields and members', async () => {
    expect((await t.as('iago').patch('/realm/profile_fields/99', { name: 'x' })).body).toEqual(
      error('BAD_REQUEST', 'Field id 99 not found.'),
    );
    expect((await t.as('iago').patch('/realm/profile_fields/1', { name: 'Biography' })).body).toEqual(
      error('BAD_REQUEST', 'A field with that label already exists.'),
    );
    expect((await t.as('iago').patch('/realm/profile_fields/2', { display_in_profile_summary: true })).body).toEqual(
      error('BAD_REQUEST', 'Only 2 custom profile fields can be displayed in the profile summary.'),
    );
    expect((await t.as('iago').patch('/realm/profile_fields/8', { name: 'GH' })).body).toEqual(
      error('BAD_REQUEST', 'Default custom field cannot be updated.'),
    );
    expect((await t.as('iago').patch('/realm/profile_fields/8', { required: true })).body).toEqual(ok);
    expect((await t.as('hamlet').patch('/realm/profile_fields/1', { name: 'Mobile' })).body).toEqual(admin);
    expect((await fields()).find((f: any) => f.id === 1).name).toBe('Phone number');
  });

  it("deletes a field with every user's value of it", async () => {
    const queue = await registerQueue(t, 'othello', ['custom_profile_fields']);
    expect((await t.as('hamlet').delete('/realm/profile_fields/1')).body).toEqual(admin);
    expect((await t.as('iago').delete('/realm/profile_fields/99')).body).toEqual(
      error('BAD_REQUEST', 'Field id 99 not found.'),
    );
    expect((await t.as('iago').delete('/realm/profile_fields/1')).body).toEqual(ok);
    const list = await fields();
    expect(list.map((f: any) => f.id)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await profile('hamlet'))['1']).toBeUndefined();
    expect(strip(await eventsOf(t, 'othello', queue))).toEqual([{ type: 'custom_profile_fields', fields: list }]);
  });
});

describe('PATCH /realm/profile_fields (reorder)', () => {
  it('orders the fields by their position in the list', async () => {
    const queue = await registerQueue(t, 'hamlet', ['custom_profile_fields']);
    const order = [9, 8, 7, 6, 5, 4, 3, 2, 1];
    expect((await t.as('iago').patch('/realm/profile_fields', { order: JSON.stringify(order) })).body).toEqual(ok);
    const list = await fields();
    expect(list.map((f: any) => [f.id, f.order])).toEqual(order.map((id, i) => [id, i]));
    expect(await registered()).toEqual(list);
    expect(strip(await eventsOf(t, 'hamlet', queue))).toEqual([{ type: 'custom_profile_fields', fields: list }]);
  });

  it('refuses a list that leaves a field out, and members', async () => {
    expect((await t.as('iago').patch('/realm/profile_fields', { order: JSON.stringify([1, 2, 3]) })).body).toEqual(
      error('BAD_REQUEST', 'Invalid order mapping.'),
    );
    expect(
      (await t.as('hamlet').patch('/realm/profile_fields', { order: JSON.stringify([9, 8, 7, 6, 5, 4, 3, 2, 1]) }))
        .body,
    ).toEqual(admin);
    expect((await fields()).map((f: any) => f.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
