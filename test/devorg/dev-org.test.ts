// The default fixture is the real server's development organization: the IDs, names and settings
// its API documentation's examples rely on (the 10.2 description's example values and the real
// python_examples.py / curl_param_value_generators.py), read back through HTTP from a server
// started on fixtures/default.json. The rest of the suite starts from the classic fixture.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedFixturePath } from '../../src/store/fixture.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ fixture: embeddedFixturePath('default') });
});
afterAll(() => t.close());

const ok = async (p: Promise<{ status: number; body: any }>) => {
  const r = await p;
  expect(r.body.msg ?? '', JSON.stringify(r.body).slice(0, 300)).toBe('');
  expect(r.status).toBe(200);
  return r.body;
};

/** populate_db --test-suite: the zulip organization's people and bots, sorted by email, after the system bots. */
const USERS: Array<[number, string, string, number, boolean]> = [
  [6, 'AARON@zulip.com', 'aaron', 400, false],
  [7, 'ZOE@zulip.com', 'Zoe', 400, false],
  [8, 'cordelia@zulip.com', "Cordelia, Lear's daughter", 400, false],
  [9, 'desdemona@zulip.com', 'Desdemona', 100, false],
  [10, 'hamlet@zulip.com', 'King Hamlet', 400, false],
  [11, 'iago@zulip.com', 'Iago', 200, false],
  [12, 'othello@zulip.com', 'Othello, the Moor of Venice', 400, false],
  [13, 'polonius@zulip.com', 'Polonius', 600, false],
  [14, 'prospero@zulip.com', 'Prospero from The Tempest', 400, false],
  [15, 'shiva@zulip.com', 'शिव', 300, false],
  [16, 'default-bot@zulip.com', 'Zulip Default Bot', 400, true],
  [17, 'webhook-bot@zulip.com', 'Zulip Webhook Bot', 400, true],
  [18, 'outgoing-webhook@zulip.com', 'Outgoing Webhook', 400, true],
];

describe('the default fixture is the real development organization', () => {
  it('has the system bots first (1-5), sorted by email', async () => {
    const body = await ok(t.as('hamlet').post('/register', { fetch_event_types: ['realm_user'] }));
    expect(body.cross_realm_bots.map((b: any) => [b.user_id, b.email])).toEqual([
      [1, 'emailgateway@zulip.com'],
      [2, 'nagios-receive-bot@zulip.com'],
      [3, 'nagios-send-bot@zulip.com'],
      [4, 'notification-bot@zulip.com'],
      [5, 'welcome-bot@zulip.com'],
    ]);
  });

  it('has the people and bots at the IDs the examples name (Cordelia 8, Hamlet 10, Iago 11, Othello 12)', async () => {
    const { members } = await ok(t.as('iago').get('/users'));
    const got = members
      .filter((m: any) => m.user_id <= 18)
      .map((m: any) => [m.user_id, m.email, m.full_name, m.role, m.is_bot]);
    expect(got).toEqual(USERS);
    // Email addresses are visible to everyone, as tools/test-api leaves the organization.
    const seen = await ok(t.as('othello').get('/users/10'));
    expect(seen.user.email).toBe('hamlet@zulip.com');
    // The bots' owners: Desdemona, Zoe and aaron.
    const bots = members.filter((m: any) => [16, 17, 18].includes(m.user_id));
    expect(bots.map((b: any) => [b.bot_type, b.bot_owner_id])).toEqual([
      [1, 9],
      [2, 7],
      [3, 6],
    ]);
  });

  it('has the channels at the test database IDs, with their descriptions and settings', async () => {
    const expected: Array<[number, string, string, boolean, boolean]> = [
      [1, 'Zulip', 'Questions and discussion about using Zulip.', false, false],
      [2, 'sandbox', 'Experiment with Zulip here. :test_tube:', false, false],
      [3, 'Verona', 'A city in Italy', false, false],
      [10, 'Denmark', 'A Scandinavian country', false, false],
      [11, 'Rome', 'Yet another Italian city', false, true],
      [12, 'Scotland', 'Located in the United Kingdom', false, false],
      [13, 'Venice', 'A northeastern Italian city', false, false],
      [14, 'core team', 'A private channel for core team members', true, false],
    ];
    for (const [id, name, description, invite_only, is_web_public] of expected) {
      const { stream } = await ok(t.as('desdemona').get(`/streams/${id}`));
      expect([stream.stream_id, stream.name, stream.description, stream.invite_only, stream.is_web_public]).toEqual([
        id,
        name,
        description,
        invite_only,
        is_web_public,
      ]);
      expect((await ok(t.as('desdemona').get('/get_stream_id', { stream: name }))).stream_id).toBe(id);
    }
    const creators = await Promise.all([12, 13, 14].map((id) => ok(t.as('desdemona').get(`/streams/${id}`))));
    expect(creators.map((c) => c.stream.creator_id)).toEqual([11, 13, 9]);
    const body = await ok(t.as('iago').post('/register', { fetch_event_types: ['default_streams'] }));
    // IDs since feature level 330, channel objects before.
    expect(body.realm_default_streams.map((s: any) => (typeof s === 'number' ? s : s.stream_id))).toEqual([1, 2, 3]);
  });

  it("has populate_db's subscriptions", async () => {
    const subscribers = async (id: number) =>
      (await ok(t.as('desdemona').get(`/streams/${id}/members`))).subscribers.sort((a: number, b: number) => a - b);
    expect(await subscribers(3)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(await subscribers(10)).toEqual([7, 9, 10, 11, 12, 14, 15]);
    expect(await subscribers(11)).toEqual([7]);
    expect(await subscribers(12)).toEqual([7, 11, 12, 14, 15]);
    expect(await subscribers(13)).toEqual([7, 9, 14]);
    expect(await subscribers(14)).toEqual([9, 10, 11]);
    expect(await subscribers(1)).toEqual([9, 10, 11]);
    // python_examples.py asks whether Zoe (7) is subscribed to channel 1: she is not.
    const zoe = await ok(t.as('iago').get('/users/7/subscriptions/1'));
    expect(zoe.is_subscribed).toBe(false);
  });

  it('has the system groups 9-16 and hamletcharacters 33', async () => {
    const { user_groups } = await ok(t.as('iago').get('/user_groups'));
    const named = new Map(user_groups.map((g: any) => [g.name, g]));
    expect(
      [
        'role:nobody',
        'role:owners',
        'role:administrators',
        'role:moderators',
        'role:fullmembers',
        'role:members',
        'role:everyone',
        'role:internet',
      ].map((n) => (named.get(n) as any).id),
    ).toEqual([9, 10, 11, 12, 13, 14, 15, 16]);
    const hamlet = named.get('hamletcharacters') as any;
    expect([hamlet.id, hamlet.description, [...hamlet.members].sort((a: number, b: number) => a - b)]).toEqual([
      33,
      'Characters of Hamlet',
      [8, 10],
    ]);
    expect((named.get('role:administrators') as any).members).toEqual([11]);
  });

  it('has the custom profile fields 1-9 and the values populate_db gives Iago and Hamlet', async () => {
    const { custom_fields } = await ok(t.as('iago').get('/realm/profile_fields'));
    expect(custom_fields.map((f: any) => [f.id, f.name])).toEqual([
      [1, 'Phone number'],
      [2, 'Biography'],
      [3, 'Favorite food'],
      [4, 'Favorite editor'],
      [5, 'Birthday'],
      [6, 'Favorite website'],
      [7, 'Mentor'],
      [8, 'GitHub username'],
      [9, 'Pronouns'],
    ]);
    const { user } = await ok(t.as('iago').get('/users/11', { include_custom_profile_fields: true }));
    expect(user.profile_data['1'].value).toBe('+1-234-567-8901');
    expect(user.profile_data['7'].value).toBe('[10]');
  });

  it("has populate_db's linkifiers, not the one the examples create, and the green_tick emoji", async () => {
    const { linkifiers } = await ok(t.as('iago').get('/realm/linkifiers'));
    expect(linkifiers.map((l: any) => [l.id, l.pattern])).toEqual([
      [1, '#D(?P<id>[0-9]{2,8})'],
      [2, 'zulip-mobile#(?P<id>[0-9]{2,8})'],
      [3, 'zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})'],
    ]);
    const added = await ok(
      t.as('iago').post('/realm/filters', {
        pattern: '#(?P<id>[0-9]+)',
        url_template: 'https://github.com/zulip/zulip/issues/{id}',
      }),
    );
    expect(added.id).toBe(4);
    const { emoji } = await ok(t.as('iago').get('/realm/emoji'));
    expect(emoji['1']).toMatchObject({ name: 'green_tick', author_id: 11 });
  });

  it("has Iago's two drafts (1, 2) and two scheduled messages (1, 2)", async () => {
    const { drafts } = await ok(t.as('iago').get('/drafts'));
    expect(drafts.map((d: any) => [d.id, d.topic])).toEqual([
      [1, 'Release Notes'],
      [2, 'Release Notes'],
    ]);
    const { scheduled_messages } = await ok(t.as('iago').get('/scheduled_messages'));
    const mine = scheduled_messages.map((s: any) => [s.scheduled_message_id, s.type, s.to]);
    expect(mine).toEqual(
      expect.arrayContaining([
        [1, 'stream', 10],
        [2, 'private', [11]],
      ]),
    );
  });

  it('has messages 43 and 47 in public channels Iago can read (the examples name them)', async () => {
    for (const id of [43, 47]) {
      const { message } = await ok(t.as('iago').get(`/messages/${id}`));
      expect([3, 10, 11, 12, 13]).toContain(message.stream_id);
    }
  });

  it('answers the realm settings populate_db sets', async () => {
    const body = await ok(t.as('hamlet').post('/register', { fetch_event_types: ['realm'] }));
    expect(body.realm_name).toBe('Zulip Dev');
    expect(body.realm_description).toContain("It's great for testing!");
    expect(body.realm_new_stream_announcements_stream_id).toBe(3);
    expect(body.realm_enable_spectator_access).toBe(true);
    expect(body.realm_org_type).toBe(10);
  });
  // Last: the new user joins the default channels.
  it('gives the next user created ID 25, as the real test database does (newbie)', async () => {
    const body = await ok(
      t.as('iago').post('/users', { email: 'newbie@zulip.com', password: 'Tempor4ry-pass', full_name: 'New User' }),
    );
    expect(body.user_id).toBe(25);
  });
});
