// GET /users/me/{stream_id}/topics: a channel's topics with their latest message.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { streamId } from '../helpers/fixture-rows.js';
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

describe('GET /users/me/{stream_id}/topics', () => {
  it('lists topics newest first with the ID of their latest message', async () => {
    const r = await t.as('hamlet').get(`/users/me/${streamId(t, 'Denmark')}/topics`);
    expect(r.body.topics).toEqual([
      { max_id: 6, name: 'Copenhagen' },
      { max_id: 3, name: 'test' },
    ]);
  });

  it('names the empty topic by the display name unless the client handles it', async () => {
    const verona = streamId(t, 'Verona');
    const r = await t.as('hamlet').get(`/users/me/${verona}/topics`);
    expect(r.body.topics).toEqual([
      { max_id: 14, name: 'general chat' },
      { max_id: 12, name: '✔ resolved topic' },
      { max_id: 10, name: 'test' },
      { max_id: 9, name: 'greetings' },
    ]);
    const raw = await t.as('hamlet').get(`/users/me/${verona}/topics`, { allow_empty_topic_name: true });
    expect(raw.body.topics[0]).toEqual({ max_id: 14, name: '' });
  });

  it('treats topics case-insensitively, named as in the latest message', async () => {
    const sent = await t
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Denmark', topic: 'COPENHAGEN', content: 'loud' });
    expect(sent.status).toBe(200);
    const r = await t.as('othello').get(`/users/me/${streamId(t, 'Denmark')}/topics`);
    expect(r.body.topics).toEqual([
      { max_id: sent.body.id, name: 'COPENHAGEN' },
      { max_id: 3, name: 'test' },
    ]);
  });

  it('counts only received messages in a channel with protected history', async () => {
    const coreTeam = streamId(t, 'core team');
    expect((await t.as('hamlet').get(`/users/me/${coreTeam}/topics`)).body.topics).toEqual([
      { max_id: 20, name: 'planning' },
    ]);
    await t.as('hamlet').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'core team' }],
      principals: [t.user('cordelia').user_id],
    });
    expect((await t.as('cordelia').get(`/users/me/${coreTeam}/topics`)).body.topics).toEqual([]);
  });

  it('refuses channels the caller cannot read', async () => {
    expectError(
      await t.as('othello').get(`/users/me/${streamId(t, 'core team')}/topics`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expectError(
      await t.as('polonius').get(`/users/me/${streamId(t, 'Denmark')}/topics`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
  });
});
