// --production, rule by rule: where the real development server (the default) and a production
// server differ in what a client sees, each rule answered both ways through HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';

let dev: TestServer;
let prod: TestServer;
let noDevLogin: TestServer;
beforeAll(async () => {
  [dev, prod, noDevLogin] = await Promise.all([
    startTestServer(),
    startTestServer({ production: true }),
    startTestServer({ devLogin: false }),
  ]);
});
afterAll(async () => {
  await Promise.all([dev.close(), prod.close(), noDevLogin.close()]);
});

const newUser = (email: string, password: string) => ({ email, password, full_name: 'New Person' });

describe('password strength', () => {
  it('development: any password but the empty one (PASSWORD_MIN_LENGTH 0, PASSWORD_MIN_GUESSES 0)', async () => {
    expect((await dev.as('iago').post('/users', newUser('temp@zulip.com', 'temp'))).status).toBe(200);
    expect((await dev.as('iago').post('/users', newUser('one@zulip.com', 'a'))).status).toBe(200);
    expectError(
      await dev.as('iago').post('/users', newUser('empty@zulip.com', '')),
      400,
      'BAD_REQUEST',
      'The password is too weak.',
    );
    expect(
      (await dev.as('hamlet').patch('/settings', { old_password: 'password_hamlet', new_password: 'x' })).status,
    ).toBe(200);
  });

  it('production: at least 6 characters and an estimate of 10,000 guesses', async () => {
    for (const weak of ['temp', '', 'aaaaaaaa', 'abcdefgh', '87654321', 'qwertyui', 'password', 'abcabcabc']) {
      expectError(
        await prod.as('iago').post('/users', newUser('weak@zulip.com', weak)),
        400,
        'BAD_REQUEST',
        'The password is too weak.',
      );
    }
    expect(prod.server.world.store.users.find((u) => u.email === 'weak@zulip.com')).toBeUndefined();
    expect((await prod.as('iago').post('/users', newUser('strong@zulip.com', 'a-new-secret'))).status).toBe(200);
    expectError(
      await prod.as('hamlet').patch('/settings', { old_password: 'password_hamlet', new_password: 'qwerty' }),
      400,
      'BAD_REQUEST',
      'New password is too weak!',
    );
    expect(prod.user('hamlet').password).toBe('password_hamlet');
  });

  it('register reports the rules the server enforces', async () => {
    const realm = async (t: TestServer) =>
      (await t.as('hamlet').post('/register', { fetch_event_types: ['realm'] })).body;
    expect(await realm(dev)).toMatchObject({
      password_min_length: 0,
      password_min_guesses: 0,
      development_environment: true,
    });
    expect(await realm(prod)).toMatchObject({
      password_min_length: 6,
      password_min_guesses: 10000,
      development_environment: false,
    });
  });
});

describe('development login', () => {
  it('production refuses it and does not list it; --no-dev-login changes that rule alone', async () => {
    expect((await dev.anonymous().post('/dev_fetch_api_key', { username: 'iago@zulip.com' })).status).toBe(200);
    for (const t of [prod, noDevLogin]) {
      expectError(
        await t.anonymous().post('/dev_fetch_api_key', { username: 'iago@zulip.com' }),
        400,
        'BAD_REQUEST',
        'Endpoint not available in production.',
      );
      expectError(
        await t.anonymous().get('/dev_list_users'),
        400,
        'BAD_REQUEST',
        'Endpoint not available in production.',
      );
      expect((await t.anonymous().get('/server_settings')).body.authentication_methods).toMatchObject({
        dev: false,
        password: true,
        email: true,
      });
    }
    expect((await dev.anonymous().get('/server_settings')).body.authentication_methods.dev).toBe(true);
    // --no-dev-login keeps the development server's other rules.
    expect((await noDevLogin.as('iago').post('/users', newUser('temp@zulip.com', 'temp'))).status).toBe(200);
  });
});

describe('web-public channels (WEB_PUBLIC_STREAMS_ENABLED)', () => {
  it('production has none: register says so, creating one is refused, spectators are off', async () => {
    const realm = async (t: TestServer) =>
      (await t.as('desdemona').post('/register', { fetch_event_types: ['realm'] })).body;
    expect((await realm(dev)).server_web_public_streams_enabled).toBe(true);
    expect((await realm(prod)).server_web_public_streams_enabled).toBe(false);
    const stage = { name: 'Stage', is_web_public: true, subscribers: [] };
    expect((await dev.as('desdemona').post('/channels/create', stage)).status).toBe(200);
    expectError(
      await prod.as('desdemona').post('/channels/create', stage),
      400,
      'BAD_REQUEST',
      'Web-public channels are not enabled.',
    );
    expect((await prod.anonymous().get('/server_settings')).body.realm_web_public_access_enabled).toBe(false);
  });

  it('holds in a sandbox and after a reset too', async () => {
    const r = await fetch(`${prod.base}/sandbox/s1/api/v1/server_settings`);
    expect((await r.json()).realm_web_public_access_enabled).toBe(false);
    prod.server.world.reset();
    expect(prod.server.world.store.realm.web_public_streams_enabled).toBe(false);
  });
});

describe('embedded bots (EMBEDDED_BOTS_ENABLED)', () => {
  it('production refuses bot_type 4 before checking its name', async () => {
    const bot = { full_name: 'Follow up', short_name: 'followup', bot_type: 4, service_name: 'followup' };
    expect((await dev.as('hamlet').post('/bots', bot)).status).toBe(200);
    expectError(await prod.as('hamlet').post('/bots', bot), 400, 'BAD_REQUEST', 'Embedded bots are not enabled.');
    expectError(
      await prod.as('hamlet').post('/bots', { ...bot, service_name: 'no-such-bot' }),
      400,
      'BAD_REQUEST',
      'Embedded bots are not enabled.',
    );
    expect(prod.server.world.store.users.find((u) => u.email.startsWith('followup-bot'))).toBeUndefined();
  });
});

describe('who may invite (INVITES_MIN_USER_AGE_DAYS: 0 in development, 3 in production)', () => {
  it('production refuses a member whose account is under three days old, outside invite-only organizations', async () => {
    const invite = (t: TestServer) =>
      t.as('hamlet').post('/invites', { invitee_emails: 'newcomer@example.com', stream_ids: [] });
    for (const t of [dev, prod]) {
      const store = t.server.world.store;
      store.users.update(t.user('hamlet'), {
        date_joined: new Date(t.server.clock.nowMs() - 86_400_000).toISOString(),
      });
    }
    expect((await invite(dev)).status).toBe(200);
    const r = await invite(prod);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'INVITATION_FAILED',
      msg: 'Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.',
      errors: [],
    });
    // Four days later it may.
    prod.server.clock.advance(4 * 86_400_000);
    expect((await invite(prod)).status).toBe(200);
  });
});

describe('topic summaries (TOPIC_SUMMARIZATION_MODEL)', () => {
  it('the development server has a model configured; production has none', async () => {
    const realm = async (t: TestServer) =>
      (await t.as('hamlet').post('/register', { fetch_event_types: ['realm'] })).body;
    expect((await realm(dev)).server_can_summarize_topics).toBe(true);
    expect((await realm(prod)).server_can_summarize_topics).toBe(false);
  });
});

describe('resolve-topic undo grace period (5 s in development, 60 s in production)', () => {
  async function resolveThenUndoAfter(t: TestServer, topic: string, seconds: number): Promise<string[]> {
    const denmark = t.server.world.store.streams.find((s) => s.name === 'Denmark')!;
    const sent = await t
      .as('othello')
      .post('/messages', { type: 'stream', to: denmark.stream_id, topic, content: 'it is broken' });
    expect(
      (await t.as('hamlet').patch(`/messages/${sent.body.id}`, { topic: `✔ ${topic}`, propagate_mode: 'change_all' }))
        .status,
    ).toBe(200);
    t.server.clock.advance(seconds * 1000);
    expect(
      (await t.as('hamlet').patch(`/messages/${sent.body.id}`, { topic, propagate_mode: 'change_all' })).status,
    ).toBe(200);
    return t.server.world.store.messages
      .all()
      .filter((m) => m.stream_id === denmark.stream_id && m.topic === topic)
      .map((m) => m.content);
  }
  const hamlet = (t: TestServer) => `@_**King Hamlet|${t.user('hamlet').user_id}**`;

  it('an undo 10 s later posts a notice in development and deletes the resolve notice in production', async () => {
    expect(await resolveThenUndoAfter(dev, 'grace', 10)).toEqual([
      'it is broken',
      `${hamlet(dev)} has marked this topic as resolved.`,
      `${hamlet(dev)} has marked this topic as unresolved.`,
    ]);
    expect(await resolveThenUndoAfter(prod, 'grace', 10)).toEqual(['it is broken']);
  });
});
