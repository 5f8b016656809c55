// Walks the description: every /api/v1 operation but those that exist to be called without an
// account refuses a request with no, malformed, wrong or deactivated credentials with 401 and
// leaves the state alone; the administrator-only operations refuse every role below administrator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedContract } from '../../src/server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { send } from '../fuzz/raw-http.js';
import { basic } from '../fuzz/requests.js';
import { baseRequest } from '../fuzz/transport-requests.js';

const contract = sharedContract();
/**
 * Getting the server's settings and logging in (with a password, or on the development server
 * without one: turned off with --no-dev-login) need no API key, by design.
 */
// A temporary upload URL's download is open by design: its signed, 60-second token is the permission.
// Uploaded avatars are served to anyone, as by the real server (their paths are unguessable).
// So are custom emoji images. The JWT login is a login; the push bouncer's side is called by
// remote servers with their own credentials, which its view checks. An export's archive, like an
// upload served by the real server, is protected by its unguessable path.
const UNAUTHENTICATED = [
  'dev-fetch-api-key',
  'dev-list-users',
  'fetch-api-key',
  'get-custom-emoji-image',
  'get-realm-export-file',
  'get-server-settings',
  'get-user-avatar',
  'get-user-upload-with-token',
  'jwt-fetch-api-key',
  'register-remote-push-device',
];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const key = (who: string) => t.user(who).api_key;

describe('credentials, over every operation of the description', () => {
  it('leaves exactly the login-free operations open', () => {
    expect(
      contract.operations
        .filter((op) => !op.authenticated)
        .map((op) => op.id)
        .sort(),
    ).toEqual(UNAUTHENTICATED);
  });

  const walked = contract.operations.filter((op) => op.authenticated);
  const refusals: Array<[string, () => string | undefined, string, string]> = [
    [
      'no Authorization header',
      () => undefined,
      'UNAUTHORIZED',
      'Not logged in: API authentication or user session required',
    ],
    [
      'a header that is not Basic',
      () => 'Bearer abc',
      'UNAUTHORIZED',
      'This endpoint requires HTTP basic authentication.',
    ],
    [
      'Basic without a colon',
      () => `Basic ${Buffer.from('hamlet@zulip.com').toString('base64')}`,
      'UNAUTHORIZED',
      'Invalid authorization header for basic auth',
    ],
    ['a wrong API key', () => basic('hamlet@zulip.com', 'wrong-key'), 'UNAUTHORIZED', 'Invalid API key'],
    ["another user's API key", () => basic('hamlet@zulip.com', key('iago')), 'UNAUTHORIZED', 'Invalid API key'],
    ['an unknown email', () => basic('nobody@zulip.com', key('hamlet')), 'UNAUTHORIZED', 'Invalid API key'],
    ['an empty key', () => basic('hamlet@zulip.com', ''), 'UNAUTHORIZED', 'Invalid API key'],
    [
      "a deactivated user's own key",
      () => basic('ariel@zulip.com', key('ariel')),
      'UNAUTHORIZED',
      'Account is deactivated',
    ],
  ];

  it.each(walked.map((op) => [op.id, op] as const))(
    '%s refuses missing and wrong credentials with 401',
    async (_id, op) => {
      const level = Number.isFinite(op.removedAt) ? { 'x-mock-feature-level': String(op.removedAt - 1) } : {};
      const before = JSON.stringify(t.server.world.store.state);
      for (const [what, authorization, code, msg] of refusals) {
        const req = baseRequest(contract.doc, op, authorization() ?? '');
        if (authorization() === undefined) delete req.headers.authorization;
        Object.assign(req.headers, level);
        const res = await send(t.base, req);
        expect(res.status, `${op.id} with ${what}`).toBe(401);
        expect(res.json, `${op.id} with ${what}`).toEqual({ result: 'error', code, msg });
        expect(res.headers['www-authenticate']).toBe('Basic realm="zulip"');
      }
      expect(JSON.stringify(t.server.world.store.state)).toBe(before);
    },
  );

  it('refuses a wrong password at POST /fetch_api_key without giving a key', async () => {
    const r = await t.anonymous().post('/fetch_api_key', { username: 'hamlet@zulip.com', password: 'password_iago' });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      result: 'error',
      code: 'AUTHENTICATION_FAILED',
      msg: 'Your username or password is incorrect',
    });
  });
});

describe('administrator-only operations, for every role', () => {
  const othello = () => t.user('othello');
  const settingsChange = () => ({
    twenty_four_hour_time: !othello().settings.twenty_four_hour_time,
    target_users: { user_ids: [othello().user_id] },
  });
  const adminOnly: Array<[string, (who: string) => Promise<{ status: number; body: any }>, () => boolean]> = [
    ['deactivate-user', (who) => t.as(who).delete(`/users/${othello().user_id}`), () => !othello().is_active],
    [
      'update-channel-folder',
      (who) => t.as(who).patch('/channel_folders/1', { name: 'Renamed by admin' }),
      () => t.server.world.store.channelFolders.get(1)!.name === 'Renamed by admin',
    ],
    [
      'update-settings with target_users',
      (who) => t.as(who).patch('/settings', settingsChange()),
      () => othello().settings.twenty_four_hour_time,
    ],
    [
      'update-display-settings with target_users',
      (who) => t.as(who).patch('/settings/display', settingsChange()),
      () => othello().settings.twenty_four_hour_time,
    ],
    [
      'update-notification-settings with target_users',
      (who) => t.as(who).patch('/settings/notifications', settingsChange()),
      () => othello().settings.twenty_four_hour_time,
    ],
  ];

  it.each(adminOnly.flatMap(([id, call, done]) => ['desdemona', 'iago'].map((who) => [id, who, call, done] as const)))(
    '%s is allowed to %s',
    async (_id, who, call, done) => {
      t.server.world.reset();
      expect(done()).toBe(false);
      const r = await call(who);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(done()).toBe(true);
    },
  );

  const refused: Array<[string, string, string]> = [
    ['shiva', 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'],
    ['hamlet', 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'],
    ['polonius', 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'],
    ['hamlet-bot', 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'],
  ];
  it.each(adminOnly.flatMap(([id, call]) => refused.map(([who, code, msg]) => [id, who, call, code, msg] as const)))(
    '%s is refused to %s',
    async (id, who, call, code, msg) => {
      t.server.world.reset();
      const before = JSON.stringify(t.server.world.store.state);
      const r = await call(who);
      expect(r.status).toBe(400);
      // The settings endpoints turn bots away before looking at target_users, as the real server does.
      const botOnSettings = who === 'hamlet-bot' && id.includes('settings');
      expect(r.body).toEqual(
        botOnSettings
          ? { result: 'error', code: 'BAD_REQUEST', msg: 'This endpoint does not accept bot requests.' }
          : { result: 'error', code, msg },
      );
      expect(JSON.stringify(t.server.world.store.state)).toBe(before);
    },
  );
});
