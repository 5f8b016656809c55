// GET /users/{user_id}/status: another user's status. Setting one's own: status.test.ts.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;

describe('GET /users/{user_id}/status', () => {
  it('returns only the parts of the status that are set', async () => {
    const set = await t.as('othello').post('/users/me/status', { status_text: 'on vacation', emoji_name: 'car' });
    expect(set.status).toBe(200);
    const r = await t.as('hamlet').get(`/users/${id('othello')}/status`);
    expect(r.status).toBe(200);
    expect(r.body.status).toEqual({
      status_text: 'on vacation',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    const empty = await t.as('hamlet').get(`/users/${id('cordelia')}/status`);
    expect(empty.body.status).toEqual({});
  });

  it('reports away when the user turned presence off', async () => {
    await t.as('cordelia').post('/users/me/status', { away: true });
    expect((await t.as('hamlet').get(`/users/${id('cordelia')}/status`)).body.status).toEqual({ away: true });
  });

  it('refuses unknown users, bots and deactivated users', async () => {
    expectError(await t.as('hamlet').get('/users/9999/status'), 400, 'BAD_REQUEST', 'No such user');
    expectError(await t.as('hamlet').get(`/users/${id('iago-bot')}/status`), 400, 'BAD_REQUEST', 'No such user');
    expectError(await t.as('hamlet').get(`/users/${id('ariel')}/status`), 400, 'BAD_REQUEST', 'User is deactivated');
  });

  it('does not exist before feature level 262', async () => {
    const r = await t.as('hamlet', { 'X-Mock-Feature-Level': '261' }).get(`/users/${id('othello')}/status`);
    expectError(r, 404, 'BAD_REQUEST', 'Not Found');
  });
});
