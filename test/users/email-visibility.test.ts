// Who sees a user's real address (email_address_visibility, a user setting since FL 163): every
// value against every kind of viewer, the stand-in API email of accounts that hide their address,
// the events a change sends (to whom, in which shape) and that they bring a registered client to
// what a fresh register says, messages' sender emails and client_gravatar, lookups by address.
import { describe, expect, it } from 'vitest';
import { Client, basicAuth, serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { applyEvent, rawUnread } from '../events/apply-event.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const id = (who: string) => t.user(who).user_id;
const setVisibility = async (who: string, value: number) => {
  const r = await t.as(who).patch('/settings', { email_address_visibility: value });
  expect(r.status).toBe(200);
};
const readUser = async (viewer: string, userId: number) =>
  (await t.as(viewer).get(`/users/${userId}`, { client_gravatar: false })).body.user;
const dummy = (who: string) => `user${id(who)}@zulip.com`;

/** Viewers by kind: the fixture's owner, administrator, moderator, member, guest, and a bot (role member). */
const VIEWERS = ['desdemona', 'iago', 'shiva', 'hamlet', 'polonius', 'iago-bot', 'othello'] as const;
/** Who sees othello's real address at each value (othello always sees their own). */
const SEES: Record<number, string[]> = {
  1: ['desdemona', 'iago', 'shiva', 'hamlet', 'polonius', 'iago-bot', 'othello'],
  2: ['desdemona', 'iago', 'shiva', 'hamlet', 'iago-bot', 'othello'],
  3: ['desdemona', 'iago', 'othello'],
  4: ['othello'],
  5: ['desdemona', 'iago', 'shiva', 'othello'],
};

describe('email_address_visibility: who sees the real address', () => {
  it.each([1, 2, 3, 4, 5])('at %i, by viewer role, with the API email the real one only at 1', async (value) => {
    await setVisibility('othello', value);
    const othello = id('othello');
    for (const viewer of VIEWERS) {
      const seen = await readUser(viewer, othello);
      expect([viewer, seen.delivery_email]).toEqual([
        viewer,
        SEES[value]!.includes(viewer) ? 'othello@zulip.com' : null,
      ]);
      expect(seen.email).toBe(value === 1 ? 'othello@zulip.com' : dummy('othello'));
    }
    // The user's own view of themselves.
    const me = (await t.as('othello').get('/users/me')).body;
    expect([me.email, me.delivery_email]).toEqual([
      value === 1 ? 'othello@zulip.com' : dummy('othello'),
      'othello@zulip.com',
    ]);
    const state = (await t.as('othello').post('/register', { fetch_event_types: ['realm_user'] })).body;
    expect([state.email, state.delivery_email]).toEqual([me.email, 'othello@zulip.com']);
  });

  it('shows bots to everyone, a new bot too when new users hide their address by default', async () => {
    expect((await t.as('iago').patch('/realm/user_settings_defaults', { email_address_visibility: 4 })).status).toBe(
      200,
    );
    const created = await t.as('hamlet').post('/bots', { full_name: 'Helper', short_name: 'helper', bot_type: 1 });
    expect(created.status).toBe(200);
    for (const bot of [id('iago-bot'), created.body.user_id]) {
      const seen = await readUser('polonius', bot);
      expect(seen.delivery_email).toBe(seen.email);
      expect(seen.email).toMatch(/-bot@zulip\.com$/);
    }
  });

  it('authenticates by the real address only, whatever the API email', async () => {
    await setVisibility('othello', 3);
    const key = t.user('othello').api_key;
    const as = (user: string) => new Client(t.base, null, { authorization: basicAuth(user, key) });
    expect((await as('OTHELLO@zulip.com').get('/users/me')).body.user_id).toBe(id('othello'));
    expectError(await as(dummy('othello')).get('/users/me'), 401, 'UNAUTHORIZED', 'Invalid API key');
  });
});

describe('email_address_visibility: the events of a change', () => {
  it('tells each user what they gain or lose, and everyone the new API email when it changes', async () => {
    const othello = id('othello');
    const who = ['desdemona', 'shiva', 'hamlet', 'polonius', 'othello'] as const;
    const queues = Object.fromEntries(
      await Promise.all(who.map(async (w) => [w, await registerQueue(t, w, ['realm_user', 'user_settings'])])),
    );
    const last: Record<string, number> = {};
    /** The events since the last drain of that queue. */
    const drain = async (w: string) => {
      const all = await eventsOf(t, w, queues[w]!);
      const fresh = all.filter((e) => e.id > (last[w] ?? -1));
      if (all.length) last[w] = all[all.length - 1].id;
      return fresh.map(({ id: _id, ...e }) => e);
    };
    const gravatar = t.server.world.store.users.get(othello)!.avatar_version;
    const avatar = {
      type: 'realm_user',
      op: 'update',
      person: {
        avatar_source: 'G',
        avatar_url: expect.stringContaining('https://secure.gravatar.com/avatar/'),
        avatar_url_medium: expect.stringContaining('s=500'),
        avatar_version: gravatar,
        user_id: othello,
      },
    };
    const newEmail = (email: string) => ({
      type: 'realm_user',
      op: 'update',
      person: { user_id: othello, new_email: email },
    });
    const delivery = (email: string | null) => ({
      type: 'realm_user',
      op: 'update',
      person: { user_id: othello, delivery_email: email },
    });
    const setting = (value: number) => ({
      type: 'user_settings',
      op: 'update',
      property: 'email_address_visibility',
      value,
    });

    // everyone -> administrators: the moderator, the member and the guest lose it.
    await setVisibility('othello', 3);
    expect(await drain('othello')).toEqual([setting(3), newEmail(dummy('othello')), avatar]);
    expect(await drain('desdemona')).toEqual([newEmail(dummy('othello')), avatar]);
    for (const w of ['shiva', 'hamlet', 'polonius'])
      expect(await drain(w)).toEqual([delivery(null), newEmail(dummy('othello')), avatar]);

    // administrators -> moderators: only the moderator gains it; the API email stays the stand-in.
    await setVisibility('othello', 5);
    expect(await drain('shiva')).toEqual([delivery('othello@zulip.com')]);
    for (const w of ['desdemona', 'hamlet', 'polonius']) expect(await drain(w)).toEqual([]);
    expect(await drain('othello')).toEqual([setting(5)]);

    // moderators -> everyone: the member and the guest gain it, and everyone gets the real API email.
    await setVisibility('othello', 1);
    for (const w of ['hamlet', 'polonius'])
      expect(await drain(w)).toEqual([delivery('othello@zulip.com'), newEmail('othello@zulip.com'), avatar]);
    for (const w of ['desdemona', 'shiva']) expect(await drain(w)).toEqual([newEmail('othello@zulip.com'), avatar]);
    expect((await drain('othello')).map((e) => e.type)).toEqual(['user_settings', 'realm_user', 'realm_user']);
  });

  it.each(['iago', 'hamlet', 'polonius', 'othello'])(
    'brings a client registered as %s to what a fresh register says',
    async (who) => {
      const params = { fetch_event_types: ['realm_user'], event_types: ['realm_user'], client_gravatar: false };
      const state = (await t.as(who).post('/register', params)).body;
      for (const value of [2, 3, 4, 5, 1, 4]) await setVisibility('othello', value);
      const { events } = (
        await t.as(who).get('/events', { queue_id: state.queue_id, last_event_id: -1, dont_block: true })
      ).body;
      for (const event of events) applyEvent(state, rawUnread({ pms: [], streams: [], huddles: [] }), event, id(who));
      const fresh = (await t.as(who).post('/register', params)).body;
      const pick = (s: any) => ({
        me: [s.email, s.delivery_email, s.avatar_url],
        users: s.realm_users.map((u: any) => [u.user_id, u.email, u.delivery_email, u.avatar_url]),
      });
      expect(pick(state)).toEqual(pick(fresh));
    },
  );
});

describe('email_address_visibility: messages and client_gravatar', () => {
  it('shows the stand-in as sender_email and in display_recipient, and gives the avatar URL to client_gravatar clients', async () => {
    await setVisibility('othello', 4);
    const sent = await t
      .as('othello')
      .post('/messages', { type: 'direct', to: JSON.stringify([id('hamlet')]), content: 'hi' });
    expect(sent.status).toBe(200);
    const read = async (clientGravatar: boolean) =>
      (await t.as('hamlet').get(`/messages/${sent.body.id}`, { client_gravatar: clientGravatar })).body.message;
    const withGravatar = await read(true);
    expect(withGravatar.sender_email).toBe(dummy('othello'));
    expect(withGravatar.display_recipient.map((r: any) => r.email).sort()).toEqual(
      [dummy('othello'), 'hamlet@zulip.com'].sort(),
    );
    expect(withGravatar.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\//);
    // A sender who shows their address to everyone: the client computes the Gravatar itself.
    const reply = await t
      .as('hamlet')
      .post('/messages', { type: 'direct', to: JSON.stringify([id('othello')]), content: 'yo' });
    const fromHamlet = (await t.as('othello').get(`/messages/${reply.body.id}`, { client_gravatar: true })).body
      .message;
    expect(fromHamlet.avatar_url).toBeNull();
  });

  it('sends message events with the URL to client_gravatar queues when the sender hides the address', async () => {
    await setVisibility('othello', 3);
    const q = await registerQueue(t, 'hamlet', ['message'], { client_gravatar: true });
    await t.as('othello').post('/messages', { type: 'direct', to: JSON.stringify([id('hamlet')]), content: 'a' });
    await t.as('iago').post('/messages', { type: 'direct', to: JSON.stringify([id('hamlet')]), content: 'b' });
    const [fromOthello, fromIago] = await eventsOf(t, 'hamlet', q);
    expect(fromOthello.message.sender_email).toBe(dummy('othello'));
    expect(fromOthello.message.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\//);
    expect(fromIago.message.avatar_url).toBeNull();
  });

  it('lists users with avatar URLs for client_gravatar clients where the address is hidden', async () => {
    await setVisibility('othello', 2);
    const r = await t.as('iago').get('/users');
    const byId = (who: string) => r.body.members.find((m: any) => m.user_id === id(who));
    expect(byId('othello').avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\//);
    expect(byId('hamlet').avatar_url).toBeNull();
  });

  it('finds direct message recipients by API email: the stand-in, not the hidden real address', async () => {
    await setVisibility('othello', 4);
    const byReal = await t
      .as('hamlet')
      .post('/messages', { type: 'direct', to: JSON.stringify(['othello@zulip.com']), content: 'x' });
    expectError(byReal, 400, 'BAD_REQUEST', "Invalid email 'othello@zulip.com'");
    const byDummy = await t
      .as('hamlet')
      .post('/messages', { type: 'direct', to: JSON.stringify([dummy('othello')]), content: 'x' });
    expect(byDummy.status).toBe(200);
  });
});

describe('GET /users/{email} and email_address_visibility', () => {
  it('finds a user by the real address only where the viewer may see it, by the stand-in always (FL 302)', async () => {
    await setVisibility('othello', 3);
    expect((await t.as('iago').get('/users/OTHELLO@zulip.com')).body.user.user_id).toBe(id('othello'));
    expectError(await t.as('hamlet').get('/users/othello@zulip.com'), 400, 'BAD_REQUEST', 'No such user');
    expect((await t.as('hamlet').get(`/users/${dummy('othello')}`)).body.user.user_id).toBe(id('othello'));
    // A user who shows their address to nobody is not found by it, even by themselves.
    await setVisibility('othello', 4);
    expectError(await t.as('othello').get('/users/othello@zulip.com'), 400, 'BAD_REQUEST', 'No such user');
    // The stand-in of an account that shows its address names it too.
    expect((await t.as('hamlet').get(`/users/${dummy('iago')}`)).body.user.user_id).toBe(id('iago'));
  });

  it('before FL 302, by the API email only', async () => {
    await setVisibility('othello', 3);
    const fl301 = (who: string) => t.as(who, { 'X-Mock-Feature-Level': '301' });
    expectError(await fl301('iago').get('/users/othello@zulip.com'), 400, 'BAD_REQUEST', 'No such user');
    expect((await fl301('hamlet').get(`/users/${dummy('othello')}`)).body.user.user_id).toBe(id('othello'));
    expectError(await fl301('hamlet').get(`/users/${dummy('iago')}`), 400, 'BAD_REQUEST', 'No such user');
    expect((await fl301('hamlet').get('/users/iago@zulip.com')).body.user.user_id).toBe(id('iago'));
  });
});

describe('email_address_visibility at feature levels', () => {
  it('is not a setting before FL 163: the change is ignored, and the API email stays the real address', async () => {
    const fl162 = t.as('othello', { 'X-Mock-Feature-Level': '162' });
    const r = await fl162.patch('/settings', { email_address_visibility: 4 });
    expect(r.status).toBe(200);
    expect(t.user('othello').settings.email_address_visibility).toBe(1);
    expect((await readUser('hamlet', id('othello'))).email).toBe('othello@zulip.com');
  });

  it('from FL 163 the stand-in API email follows the setting', async () => {
    const fl163 = t.as('othello', { 'X-Mock-Feature-Level': '163' });
    expect((await fl163.patch('/settings', { email_address_visibility: 2 })).status).toBe(200);
    const seen = (await t.as('polonius', { 'X-Mock-Feature-Level': '163' }).get(`/users/${id('othello')}`)).body.user;
    expect([seen.email, seen.delivery_email]).toEqual([dummy('othello'), null]);
  });
});
