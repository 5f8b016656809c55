// GET /users/me: the caller's own user, for people and bots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { defaultFixturePath } from '../../src/store/fixture.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { canSeeMessage } from '../../src/domain/messages/access.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const gravatar = (email: string, version: number) =>
  `https://secure.gravatar.com/avatar/${createHash('md5').update(email).digest('hex')}?d=identicon&version=${version}`;

describe('GET /users/me', () => {
  it('describes an administrator', async () => {
    const iago = t.user('iago');
    const r = await t.as('iago').get('/users/me');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      avatar_url: gravatar('iago@zulip.com', 1),
      avatar_version: 1,
      email: 'iago@zulip.com',
      delivery_email: 'iago@zulip.com',
      full_name: 'Iago',
      is_admin: true,
      is_owner: false,
      is_guest: false,
      is_bot: false,
      role: 200,
      timezone: 'America/Los_Angeles',
      is_active: true,
      date_joined: iago.date_joined,
      user_id: iago.user_id,
      profile_data: {},
      max_message_id: r.body.max_message_id,
    });
  });

  it.each([
    ['desdemona', { role: 100, is_admin: true, is_owner: true, is_guest: false }],
    ['shiva', { role: 300, is_admin: false, is_owner: false, is_guest: false }],
    ['hamlet', { role: 400, is_admin: false, is_owner: false, is_guest: false }],
    ['polonius', { role: 600, is_admin: false, is_owner: false, is_guest: true }],
  ])('gives %s the role flags of their role', async (who, flags) => {
    const r = await t.as(who).get('/users/me');
    expect(r.body).toMatchObject({ ...flags, user_id: t.user(who).user_id, full_name: t.user(who).full_name });
  });

  it('reports the newest message the user can see as max_message_id', async () => {
    const store = t.server.world.store;
    for (const who of ['hamlet', 'polonius']) {
      const user = t.user(who);
      const visible = store.messages.filter((m) => canSeeMessage(store, user, m)).map((m) => m.id);
      const r = await t.as(who).get('/users/me');
      expect(r.body.max_message_id).toBe(Math.max(...visible));
    }
    // The newest message (30) is a direct message between aaron and the welcome bot.
    expect((await t.as('aaron').get('/users/me')).body.max_message_id).toBe(30);
    expect((await t.as('hamlet').get('/users/me')).body.max_message_id).toBeLessThan(30);
  });

  it('max_message_id and the newest messages are right with a fixture listing messages out of ID order, and in order after sends and deletions', async () => {
    const state = JSON.parse(readFileSync(defaultFixturePath(), 'utf8'));
    state.messages.reverse();
    const shuffled = await startTestServer({ fixtureState: state });
    try {
      const store = shuffled.server.world.store;
      const expected = (who: string) =>
        Math.max(...store.messages.filter((m) => canSeeMessage(store, shuffled.user(who), m)).map((m) => m.id));
      for (const who of ['hamlet', 'polonius', 'aaron']) {
        expect((await shuffled.as(who).get('/users/me')).body.max_message_id).toBe(expected(who));
        expect((await shuffled.as(who).post('/register', { event_types: ['message'] })).body.max_message_id).toBe(
          expected(who),
        );
      }
      // Stored in ID order again: GET /messages finds the newest ones too.
      const newest = await shuffled.as('hamlet').get('/messages', { anchor: 'newest', num_before: 3, num_after: 0 });
      const ids = newest.body.messages.map((m: { id: number }) => m.id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
      expect(ids.at(-1)).toBe(expected('hamlet'));
    } finally {
      await shuffled.close();
    }
    const sent = await t
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Denmark', topic: 'max', content: 'newest' });
    expect((await t.as('hamlet').post('/register', { event_types: ['message'] })).body.max_message_id).toBe(
      sent.body.id,
    );
    expect((await t.as('iago').delete(`/messages/${sent.body.id}`)).status).toBe(200);
    expect((await t.as('hamlet').get('/users/me')).body.max_message_id).toBeLessThan(sent.body.id);
  });

  it('describes a bot with its type and owner and without profile data', async () => {
    const r = await t.as('hamlet-bot').get('/users/me');
    expect(r.body).toMatchObject({
      is_bot: true,
      bot_type: 1,
      bot_owner_id: t.user('hamlet').user_id,
      user_id: t.user('hamlet-bot').user_id,
    });
    expect(r.body).not.toHaveProperty('profile_data');
  });

  it('needs credentials', async () => {
    const r = await t.anonymous().get('/users/me');
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('UNAUTHORIZED');
  });
});
