// POST /users/{user_id}/status (an administrator sets another person's status), GET
// /bots/{bot_id}/api_key and GET /users/{user_id}/channels: permissions, events, errors, levels.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { ControlClient } from '../../src/control/client.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await new ControlClient(t.base).reset();
});

describe('POST /users/{user_id}/status', () => {
  it("sets another user's status, read back, with the user_status event to everyone", async () => {
    const q = await registerQueue(t, 'othello', ['user_status']);
    const r = await t.as('iago').post('/users/4/status', { status_text: ' on vacation ', emoji_name: 'car' });
    expect(r.body).toEqual({ result: 'success', msg: '' });
    expect((await t.as('othello').get('/users/4/status')).body.status).toEqual({
      status_text: 'on vacation',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
    expect(await eventsOf(t, 'othello', q)).toEqual([
      {
        type: 'user_status',
        id: 0,
        user_id: 4,
        status_text: 'on vacation',
        emoji_name: 'car',
        emoji_code: '1f697',
        reaction_type: 'unicode_emoji',
      },
    ]);
  });

  it('refuses non-administrators, bots, unknown and deactivated users, and empty changes', async () => {
    expectError(
      await t.as('hamlet').post('/users/5/status', { status_text: 'x' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await t.as('hamlet').post('/users/4/status', { status_text: 'x' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    // The real server's order: a bot caller first, then the user looked up, then the permission.
    expectError(
      await t.as('iago-bot').post('/users/4/status', { status_text: 'x' }),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
    expectError(
      await t.as('hamlet').post('/users/999/status', { status_text: 'x' }),
      400,
      'BAD_REQUEST',
      'No such user',
    );
    expectError(await t.as('iago').post('/users/12/status', { status_text: 'x' }), 400, 'BAD_REQUEST', 'No such user');
    expectError(await t.as('iago').post('/users/999/status', { status_text: 'x' }), 400, 'BAD_REQUEST', 'No such user');
    expectError(
      await t.as('iago').post('/users/10/status', { status_text: 'x' }),
      400,
      'BAD_REQUEST',
      'User is deactivated',
    );
    expectError(
      await t.as('iago').post('/users/4/status', {}),
      400,
      'BAD_REQUEST',
      'Client did not pass any new values.',
    );
    expectError(
      await t.as('iago').post('/users/4/status', { emoji_name: 'invalid' }),
      400,
      'BAD_REQUEST',
      "Emoji 'invalid' does not exist",
    );
    expectError(
      await t.as('iago').post('/users/4/status', { status_text: 'x', emoji_code: '1f697' }),
      400,
      'BAD_REQUEST',
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    );
    expect((await t.as('hamlet').get('/users/4/status')).body.status).toEqual({});
  });

  it('does not exist before feature level 407 (GET alone answers there)', async () => {
    const r = await t.as('iago', { 'X-Mock-Feature-Level': '406' }).post('/users/4/status', { status_text: 'x' });
    expect(r.status).toBe(405);
  });
});

describe('GET /bots/{bot_id}/api_key', () => {
  it("gives the bot's key to its owner and to administrators", async () => {
    const key = t.user('hamlet-bot').api_key;
    expect((await t.as('hamlet').get('/bots/12/api_key')).body).toEqual({ result: 'success', msg: '', api_key: key });
    expect((await t.as('iago').get('/bots/12/api_key')).body.api_key).toBe(key);
    const regenerated = (await t.as('hamlet').post('/bots/12/api_key/regenerate')).body.api_key;
    expect((await t.as('hamlet').get('/bots/12/api_key')).body.api_key).toBe(regenerated);
  });

  it('refuses other users, guests, and IDs of no bot', async () => {
    expectError(await t.as('othello').get('/bots/12/api_key'), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectError(await t.as('polonius').get('/bots/12/api_key'), 400, 'BAD_REQUEST', 'Not allowed for guest users');
    expectError(await t.as('iago').get('/bots/4/api_key'), 400, 'BAD_REQUEST', 'No such bot');
    expectError(await t.as('iago').get('/bots/13/api_key'), 400, 'BAD_REQUEST', 'No such bot');
  });

  it('does not exist before feature level 463', async () => {
    expectError(
      await t.as('hamlet', { 'X-Mock-Feature-Level': '462' }).get('/bots/12/api_key'),
      404,
      'BAD_REQUEST',
      'Not Found',
    );
  });
});

describe('GET /users/{user_id}/channels', () => {
  it("lists the user's channels that the caller may see the subscribers of", async () => {
    expect((await t.as('hamlet').get('/users/4/channels')).body).toEqual({
      result: 'success',
      msg: '',
      subscribed_channel_ids: [1, 2, 3, 4, 5, 6, 8],
    });
    // Othello is not in the private "core team" (6); an administrator sees it.
    expect((await t.as('othello').get('/users/4/channels')).body.subscribed_channel_ids).toEqual([1, 2, 3, 4, 5, 8]);
    expect((await t.as('iago').get('/users/4/channels')).body.subscribed_channel_ids).toEqual([1, 2, 3, 4, 5, 6, 8]);
    await t.as('hamlet').delete('/users/me/subscriptions', { subscriptions: ['Rome'] });
    expect((await t.as('othello').get('/users/4/channels')).body.subscribed_channel_ids).toEqual([1, 2, 3, 4, 8]);
  });

  it('answers No such user for an unknown ID, and does not exist before feature level 440', async () => {
    expectError(await t.as('hamlet').get('/users/999/channels'), 400, 'BAD_REQUEST', 'No such user');
    expectError(
      await t.as('hamlet', { 'X-Mock-Feature-Level': '439' }).get('/users/4/channels'),
      404,
      'BAD_REQUEST',
      'Not Found',
    );
  });
});
