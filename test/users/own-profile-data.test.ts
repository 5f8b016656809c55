// PATCH / DELETE /users/me/profile_data: a person sets and clears their own custom profile field
// values, checked per field type as for administrators, only fields editable by users (Mentor is
// not, in the fixture), with realm_user custom_profile_field events and the values read back.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const PHONE = 1,
  BIO = 2,
  EDITOR = 4,
  BIRTHDAY = 5,
  WEBSITE = 6,
  MENTOR = 7;
const profile = async (who: string) =>
  (await t.as('cordelia').get(`/users/${t.user(who).user_id}`, { include_custom_profile_fields: true })).body.user
    .profile_data;

describe('PATCH /users/me/profile_data', () => {
  it('stores each value, renders text fields and tells everyone', async () => {
    const queue = await registerQueue(t, 'cordelia', ['realm_user']);
    const r = await t.as('othello').patch('/users/me/profile_data', {
      data: [
        { id: PHONE, value: '+1-555-0100' },
        { id: BIRTHDAY, value: '1990-04-05' },
      ],
    });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    const data = await profile('othello');
    expect(data[PHONE]).toEqual({ value: '+1-555-0100', rendered_value: '<p>+1-555-0100</p>' });
    expect(data[BIRTHDAY]).toEqual({ value: '1990-04-05' });
    const events = (await eventsOf(t, 'cordelia', queue)).map((e) => e.person);
    expect(events).toEqual([
      {
        user_id: t.user('othello').user_id,
        custom_profile_field: { id: PHONE, value: '+1-555-0100', rendered_value: '<p>+1-555-0100</p>' },
      },
      { user_id: t.user('othello').user_id, custom_profile_field: { id: BIRTHDAY, value: '1990-04-05' } },
    ]);
    // The same value again changes nothing and says nothing.
    const again = await registerQueue(t, 'cordelia', ['realm_user']);
    await t.as('othello').patch('/users/me/profile_data', { data: [{ id: BIRTHDAY, value: '1990-04-05' }] });
    expect(await eventsOf(t, 'cordelia', again)).toEqual([]);
  });

  it('checks every value against its field type before storing any', async () => {
    const cases: Array<[unknown, string]> = [
      [{ id: 99, value: 'x' }, 'Field id 99 not found.'],
      [{ id: PHONE, value: 'x'.repeat(51) }, 'Phone number is too long (limit: 50 characters)'],
      [{ id: BIO, value: 'x'.repeat(501) }, 'Biography is too long (limit: 500 characters)'],
      [{ id: EDITOR, value: '7' }, "'7' is not a valid choice for 'Favorite editor'."],
      [{ id: BIRTHDAY, value: '1990-13-01' }, 'Birthday is not a date'],
      [{ id: WEBSITE, value: 'not a url' }, 'Favorite website is not a URL'],
      [{ id: PHONE, value: [1] }, 'Phone number is not a string'],
    ];
    for (const [entry, msg] of cases) {
      const r = await t
        .as('othello')
        .patch('/users/me/profile_data', { data: [{ id: BIRTHDAY, value: '2000-01-01' }, entry] });
      expect(r.body, msg).toEqual(error('BAD_REQUEST', msg));
    }
    expect((await profile('othello'))[BIRTHDAY]).toBeUndefined();
  });

  it('leaves fields not editable by users to administrators', async () => {
    const r = await t
      .as('othello')
      .patch('/users/me/profile_data', { data: [{ id: MENTOR, value: [t.user('iago').user_id] }] });
    expect(r.body).toEqual(
      error('BAD_REQUEST', 'You are not allowed to change this field. Contact an administrator to update it.'),
    );
    const own = await t
      .as('iago')
      .patch('/users/me/profile_data', { data: [{ id: MENTOR, value: [t.user('othello').user_id] }] });
    expect(own.status).toBe(200);
    expect((await profile('iago'))[MENTOR]).toEqual({ value: `[${t.user('othello').user_id}]` });
    expect((await t.as('iago').patch('/users/me/profile_data', { data: [{ id: MENTOR, value: 'x' }] })).body).toEqual(
      error('BAD_REQUEST', 'User IDs is not a list'),
    );
    expect((await t.as('iago').patch('/users/me/profile_data', { data: [{ id: MENTOR, value: [999] }] })).body).toEqual(
      error('BAD_REQUEST', 'Invalid user ID: 999'),
    );
  });

  it('refuses bots and a missing data', async () => {
    expect(
      (await t.as('iago-bot').patch('/users/me/profile_data', { data: [{ id: PHONE, value: '1' }] })).body,
    ).toEqual(error('BAD_REQUEST', 'This endpoint does not accept bot requests.'));
    expect((await t.as('othello').patch('/users/me/profile_data', {})).body).toEqual({
      ...error('REQUEST_VARIABLE_MISSING', "Missing 'data' argument"),
      var_name: 'data',
    });
  });
});

describe('DELETE /users/me/profile_data', () => {
  it('clears the listed values with an event each, skipping fields without one', async () => {
    await t.as('othello').patch('/users/me/profile_data', {
      data: [
        { id: PHONE, value: '123' },
        { id: BIRTHDAY, value: '1990-04-05' },
      ],
    });
    const queue = await registerQueue(t, 'cordelia', ['realm_user']);
    const r = await t.as('othello').delete('/users/me/profile_data', { data: [PHONE, WEBSITE] });
    expect(r.status).toBe(200);
    const data = await profile('othello');
    expect(data[PHONE]).toBeUndefined();
    expect(data[BIRTHDAY]).toEqual({ value: '1990-04-05' });
    expect((await eventsOf(t, 'cordelia', queue)).map((e) => e.person)).toEqual([
      { user_id: t.user('othello').user_id, custom_profile_field: { id: PHONE, value: null } },
    ]);
  });

  it('stops at an unknown or non-editable field, after clearing the ones before it', async () => {
    await t.as('othello').patch('/users/me/profile_data', {
      data: [
        { id: PHONE, value: '123' },
        { id: BIRTHDAY, value: '1990-04-05' },
      ],
    });
    expect((await t.as('othello').delete('/users/me/profile_data', { data: [PHONE, 99] })).body).toEqual(
      error('BAD_REQUEST', 'Field id 99 not found.'),
    );
    expect((await t.as('othello').delete('/users/me/profile_data', { data: [BIRTHDAY, MENTOR] })).body).toEqual(
      error('BAD_REQUEST', 'You are not allowed to change this field. Contact an administrator to update it.'),
    );
    expect(await profile('othello')).toEqual({});
    expect((await t.as('iago-bot').delete('/users/me/profile_data', { data: [PHONE] })).body).toEqual(
      error('BAD_REQUEST', 'This endpoint does not accept bot requests.'),
    );
  });
});
