// Servers before feature level 163 (Zulip 7.0) applied the organization's email_address_visibility
// to message objects too: `sender_email`, the direct recipients' `email` in `display_recipient` and
// reactions' `user`, avatar URLs (client_gravatar forced off while addresses were hidden, for
// GET /messages and for the queues register made), and the lookups of people by API email (direct
// message recipients, `principals`, presence). Each rule at 162 and, beside it, what 163 answers
// for the same state; reads kept at one level are compared byte for byte with a fresh server.
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { freshTwin } from '../helpers/fresh-twin.js';
import { expectError } from '../helpers/errors.js';

let t: TestServer;
serverPerTest((server) => (t = server), { answerCache: false });

const at = (level: number, who: string) => t.as(who, { 'X-Mock-Feature-Level': String(level) });
const id = (who: string) => t.user(who).user_id;
const dummy = (who: string) => `user${id(who)}@zulip.com`;
const real = (who: string) => `${who}@zulip.com`;
const GRAVATAR = /^https:\/\/secure\.gravatar\.com\//;
const setOrganization = async (value: number) => {
  const r = await at(162, 'iago').patch('/realm', { email_address_visibility: value });
  expect(r.status).toBe(200);
};
const sendDirect = async (level: number, from: string, to: unknown[]) =>
  at(level, from).post('/messages', { type: 'private', to: JSON.stringify(to), content: 'a direct message' });
const newest = async (level: number, who: string, extra: Record<string, unknown> = {}) => {
  const r = await at(level, who).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, ...extra });
  expect(r.status).toBe(200);
  return r.body.messages[0];
};
const emailsOf = (m: any) => ({
  sender: m.sender_email,
  recipients: m.display_recipient.map((r: any) => r.email),
});

describe('message objects before FL 163', () => {
  it('carry the stand-ins while the organization hides addresses, and bots their own', async () => {
    expect((await sendDirect(163, 'hamlet', [id('othello')])).status).toBe(200);
    await setOrganization(4);
    const old = await newest(162, 'othello');
    expect(emailsOf(old)).toEqual({ sender: dummy('hamlet'), recipients: [dummy('hamlet'), dummy('othello')] });
    const byId = (await at(162, 'othello').get(`/messages/${old.id}`)).body.message;
    expect(emailsOf(byId)).toEqual(emailsOf(old));
    // 163 answers the same state by the accounts' own settings (all "everyone" here).
    expect(emailsOf(await newest(163, 'othello'))).toEqual({
      sender: real('hamlet'),
      recipients: [real('hamlet'), real('othello')],
    });

    const bot = t.user('iago-bot');
    const r = await at(162, 'iago-bot').post('/messages', {
      type: 'private',
      to: JSON.stringify([id('othello')]),
      content: 'from a bot',
    });
    expect(r.status).toBe(200);
    expect(emailsOf(await newest(162, 'othello'))).toEqual({
      sender: bot.email,
      recipients: [
        [id('othello'), dummy('othello')],
        [bot.user_id, bot.email],
      ]
        .sort((a, b) => (a[0] as number) - (b[0] as number))
        .map((pair) => pair[1]),
    });
  });

  it('follow the organization, not an account’s own setting, and name reactions’ users so', async () => {
    expect((await sendDirect(163, 'hamlet', [id('othello')])).status).toBe(200);
    const message = (await newest(163, 'othello')).id;
    expect((await at(162, 'othello').post(`/messages/${message}/reactions`, { emoji_name: 'octopus' })).status).toBe(
      200,
    );
    // Hamlet hides the address with his own setting (163): below 163 the organization still shows it.
    expect((await at(163, 'hamlet').patch('/settings', { email_address_visibility: 4 })).status).toBe(200);
    expect((await newest(162, 'othello')).sender_email).toBe(real('hamlet'));
    expect((await newest(163, 'othello')).sender_email).toBe(dummy('hamlet'));
    await setOrganization(3);
    const old = await newest(162, 'hamlet');
    expect(old.reactions.map((r: any) => r.user.email)).toEqual([dummy('othello')]);
  });

  it('give client_gravatar clients avatar URLs while the organization hides addresses', async () => {
    expect((await sendDirect(163, 'hamlet', [id('othello')])).status).toBe(200);
    const avatar = async (level: number) => (await newest(level, 'othello', { client_gravatar: true })).avatar_url;
    expect(await avatar(162)).toBeNull();
    await setOrganization(3);
    expect(await avatar(162)).toMatch(GRAVATAR);
    // GET /messages/{id}: the same rule.
    const message = (await newest(162, 'othello')).id;
    expect((await at(162, 'othello').get(`/messages/${message}`)).body.message.avatar_url).toMatch(GRAVATAR);
    expect((await at(163, 'othello').get(`/messages/${message}`)).body.message.avatar_url).toBeNull();
    expect(await avatar(163)).toBeNull();
  });

  it('read anew at either level answer what a fresh server answers, the organization changing between', async () => {
    const twin = await freshTwin(t);
    try {
      expect((await sendDirect(163, 'hamlet', [id('othello'), id('cordelia')])).status).toBe(200);
      // The same options at both levels (client_gravatar's default differs, and it is off at 162
      // while addresses are hidden): only the level tells the kept variants apart.
      const reads: Array<[number, Record<string, unknown>]> = [
        [162, { client_gravatar: false }],
        [163, { client_gravatar: false }],
        [162, { client_gravatar: true }],
        [163, { client_gravatar: true }],
        [162, {}],
      ];
      for (const value of [1, 3, 4, 1]) {
        await setOrganization(value);
        for (const [level, extra] of reads) {
          const params = { anchor: 'newest', num_before: 5, num_after: 0, ...extra };
          const { kept, fresh } = await twin.both('othello', '/messages', params, level);
          expect(kept, `setting ${value}, level ${level}, ${JSON.stringify(extra)}`).toBe(fresh);
        }
      }
    } finally {
      await twin.close();
    }
  });
});

describe('message events before FL 163', () => {
  it('carry the organization’s addresses, and client_gravatar queues get URLs while it hides them', async () => {
    const params = { event_types: ['message'], fetch_event_types: [], client_gravatar: true };
    await setOrganization(4);
    const old = (await at(162, 'othello').post('/register', params)).body.queue_id;
    const newer = (await at(163, 'othello').post('/register', params)).body.queue_id;
    // The queue keeps the flag register gave it, though the organization shows addresses again.
    await setOrganization(1);
    const oldEveryone = (await at(162, 'othello').post('/register', params)).body.queue_id;
    await setOrganization(4);
    expect((await sendDirect(163, 'hamlet', [id('othello')])).status).toBe(200);
    const message = async (level: number, queue: string) => {
      const r = await at(level, 'othello').get('/events', { queue_id: queue, last_event_id: -1, dont_block: true });
      return r.body.events.find((e: any) => e.type === 'message').message;
    };
    const oldMessage = await message(162, old);
    expect(emailsOf(oldMessage)).toEqual({ sender: dummy('hamlet'), recipients: [dummy('hamlet'), dummy('othello')] });
    expect(oldMessage.avatar_url).toMatch(GRAVATAR);
    const newMessage = await message(163, newer);
    expect(emailsOf(newMessage)).toEqual({ sender: real('hamlet'), recipients: [real('hamlet'), real('othello')] });
    expect(newMessage.avatar_url).toBeNull();
    const registeredWhileShown = await message(162, oldEveryone);
    expect(registeredWhileShown.sender_email).toBe(dummy('hamlet'));
    expect(registeredWhileShown.avatar_url).toBeNull();
  });

  it('a queue narrowed to a sender by email takes the email its own level shows', async () => {
    await setOrganization(4);
    const register = async (level: number, email: string) =>
      (
        await at(level, 'othello').post('/register', {
          event_types: ['message'],
          fetch_event_types: [],
          narrow: JSON.stringify([['sender', email]]),
        })
      ).body.queue_id;
    const queues = {
      oldByStandIn: await register(162, dummy('hamlet')),
      oldByAddress: await register(162, real('hamlet')),
      newByAddress: await register(163, real('hamlet')),
    };
    expect((await sendDirect(163, 'hamlet', [id('othello')])).status).toBe(200);
    const got = async (level: number, queue: string) =>
      (
        await at(level, 'othello').get('/events', { queue_id: queue, last_event_id: -1, dont_block: true })
      ).body.events.some((e: any) => e.type === 'message');
    expect(await got(162, queues.oldByStandIn)).toBe(true);
    expect(await got(162, queues.oldByAddress)).toBe(false);
    expect(await got(163, queues.newByAddress)).toBe(true);
  });

  it('register gives realm_users avatar URLs while the organization hides addresses', async () => {
    await setOrganization(3);
    const state = (
      await at(162, 'hamlet').post('/register', { fetch_event_types: ['realm_user'], client_gravatar: true })
    ).body;
    expect(state.realm_users.find((u: any) => u.user_id === id('othello')).avatar_url).toMatch(GRAVATAR);
    const newer = (
      await at(163, 'hamlet').post('/register', { fetch_event_types: ['realm_user'], client_gravatar: true })
    ).body;
    expect(newer.realm_users.find((u: any) => u.user_id === id('othello')).avatar_url).toBeNull();
  });
});

describe('lookups by API email before FL 163', () => {
  it('direct message recipients: the stand-in while the organization hides addresses, else the real one', async () => {
    expect((await sendDirect(162, 'hamlet', [real('othello')])).status).toBe(200);
    expectError(
      await sendDirect(162, 'hamlet', [dummy('othello')]),
      400,
      'BAD_REQUEST',
      `Invalid email '${dummy('othello')}'`,
    );
    await setOrganization(4);
    expect((await sendDirect(162, 'hamlet', [dummy('othello').toUpperCase()])).status).toBe(200);
    expectError(
      await sendDirect(162, 'hamlet', [real('othello')]),
      400,
      'BAD_REQUEST',
      `Invalid email '${real('othello')}'`,
    );
    // 163 goes by the accounts' own settings.
    expect((await sendDirect(163, 'hamlet', [real('othello')])).status).toBe(200);
    // Bots keep their address.
    expect((await sendDirect(162, 'hamlet', [t.user('iago-bot').email])).status).toBe(200);
    // A deactivated recipient is named by that API email too.
    expect((await t.as('iago').delete(`/users/${id('othello')}`)).status).toBe(200);
    const gone = `'${dummy('othello')}' is no longer using Zulip.`;
    expectError(await sendDirect(162, 'hamlet', [id('othello')]), 400, 'BAD_REQUEST', gone);
    expectError(
      await sendDirect(163, 'hamlet', [id('othello')]),
      400,
      'BAD_REQUEST',
      `'${real('othello')}' is no longer using Zulip.`,
    );
  });

  it('principals, and the subscribe answer keyed by those emails', async () => {
    await setOrganization(4);
    const subscribe = (level: number, principals: unknown[]) =>
      at(level, 'iago').post('/users/me/subscriptions', {
        subscriptions: JSON.stringify([{ name: 'Verona' }]),
        principals: JSON.stringify(principals),
      });
    const r = await subscribe(162, [dummy('othello'), dummy('iago')]);
    expect(r.status).toBe(200);
    expect(Object.keys({ ...r.body.subscribed, ...r.body.already_subscribed }).sort()).toEqual(
      [dummy('iago'), dummy('othello')].sort(),
    );
    expectError(await subscribe(162, [real('othello')]), 400, 'BAD_REQUEST', 'No such user');
    expect((await subscribe(163, [real('othello')])).status).toBe(200);
    const unsubscribe = await at(162, 'iago').delete('/users/me/subscriptions', {
      subscriptions: JSON.stringify(['Verona']),
      principals: JSON.stringify([dummy('othello')]),
    });
    expect(unsubscribe.status).toBe(200);
    expect(unsubscribe.body.removed).toEqual(['Verona']);
  });

  it('narrow operands (dm, sender, dm-including) in GET /messages, flags/narrow and matches_narrow', async () => {
    const sent = await sendDirect(163, 'hamlet', [id('othello')]);
    expect(sent.status).toBe(200);
    await setOrganization(4);
    const narrowed = (level: number, narrow: unknown[]) =>
      at(level, 'othello').get('/messages', {
        anchor: 'newest',
        num_before: 5,
        num_after: 0,
        narrow: JSON.stringify(narrow),
      });
    for (const narrow of [
      [{ operator: 'dm', operand: dummy('hamlet') }],
      [{ operator: 'sender', operand: dummy('hamlet') }],
      [{ operator: 'dm-including', operand: dummy('hamlet') }],
    ]) {
      const found = await narrowed(162, narrow);
      expect(found.status).toBe(200);
      expect(found.body.messages.map((m: any) => m.id)).toContain(sent.body.id);
      // 163 knows no such API email: the accounts' own settings show the real addresses.
      expect((await narrowed(163, narrow)).body.code).toBe('BAD_NARROW');
    }
    expectError(
      await narrowed(162, [{ operator: 'sender', operand: real('hamlet') }]),
      400,
      'BAD_NARROW',
      `Invalid narrow operator: unknown user ${real('hamlet')}`,
    );
    expect((await narrowed(163, [{ operator: 'sender', operand: real('hamlet') }])).status).toBe(200);

    const narrow = JSON.stringify([{ operator: 'dm', operand: dummy('hamlet') }]);
    const flagged = await at(162, 'othello').post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow,
      op: 'add',
      flag: 'starred',
    });
    expect(flagged.status).toBe(200);
    expect(flagged.body.processed_count).toBeGreaterThan(0);
    const matched = await at(162, 'othello').get('/messages/matches_narrow', {
      msg_ids: JSON.stringify([sent.body.id]),
      narrow,
    });
    expect(Object.keys(matched.body.messages)).toEqual([String(sent.body.id)]);
  });

  it('presence by email', async () => {
    await setOrganization(4);
    const presence = (level: number, email: string) => at(level, 'hamlet').get(`/users/${email}/presence`);
    const found = await presence(162, dummy('othello'));
    expect(found.status === 200 || found.body.msg === `No presence data for ${dummy('othello')}`).toBe(true);
    expectError(await presence(162, real('othello')), 400, 'BAD_REQUEST', 'No such user');
    expectError(await presence(163, dummy('othello')), 400, 'BAD_REQUEST', 'No such user');
  });
});

describe('events naming people by API email before FL 163', () => {
  it('reaction, typing and presence events carry the organization’s addresses to queues below 163', async () => {
    await setOrganization(4);
    const params = { event_types: ['reaction', 'typing', 'presence'], fetch_event_types: [] };
    const old = (await at(162, 'othello').post('/register', params)).body.queue_id;
    const newer = (await at(163, 'othello').post('/register', params)).body.queue_id;
    expect((await sendDirect(163, 'hamlet', [id('othello')])).status).toBe(200);
    const message = (await newest(163, 'hamlet')).id;
    expect((await at(163, 'hamlet').post(`/messages/${message}/reactions`, { emoji_name: 'octopus' })).status).toBe(
      200,
    );
    expect((await at(163, 'hamlet').post('/typing', { op: 'start', to: JSON.stringify([id('othello')]) })).status).toBe(
      200,
    );
    expect((await at(163, 'hamlet').post('/users/me/presence', { status: 'active' })).status).toBe(200);
    const events = async (level: number, queue: string) => {
      const r = await at(level, 'othello').get('/events', { queue_id: queue, last_event_id: -1, dont_block: true });
      const of = (type: string) => r.body.events.find((e: any) => e.type === type);
      return {
        reaction: of('reaction').user.email,
        typing: [of('typing').sender.email, ...of('typing').recipients.map((u: any) => u.email)],
        presence: of('presence').email,
      };
    };
    expect(await events(162, old)).toEqual({
      reaction: dummy('hamlet'),
      // The sender, then the recipients in the request's order, the sender last.
      typing: [dummy('hamlet'), dummy('othello'), dummy('hamlet')],
      presence: dummy('hamlet'),
    });
    const fresh = await events(163, newer);
    expect(fresh.reaction).toBe(real('hamlet'));
    expect(fresh.typing[0]).toBe(real('hamlet'));
    expect(fresh.presence).toBe(real('hamlet'));
  });

  it('register’s and GET /realm/presence’s presence are keyed by the organization’s addresses', async () => {
    expect((await at(163, 'hamlet').post('/users/me/presence', { status: 'active' })).status).toBe(200);
    await setOrganization(4);
    const state = (await at(162, 'othello').post('/register', { fetch_event_types: ['presence'] })).body;
    expect(Object.keys(state.presences)).toContain(dummy('hamlet'));
    expect(Object.keys(state.presences)).not.toContain(real('hamlet'));
    const all = (await at(162, 'othello').get('/realm/presence')).body;
    expect(Object.keys(all.presences)).toContain(dummy('hamlet'));
    const newer = (await at(163, 'othello').get('/realm/presence')).body;
    expect(Object.keys(newer.presences)).toContain(real('hamlet'));
  });
});
