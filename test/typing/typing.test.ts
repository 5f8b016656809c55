// POST /typing: typing notifications for direct messages and channel topics.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { stream } from '../helpers/fixture-rows.js';
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

const store = () => t.server.world.store;

describe('POST /typing', () => {
  it('direct: every participant who receives typing notifications gets the event', async () => {
    const hamlet = t.user('hamlet');
    const othello = t.user('othello');
    const cordelia = t.user('cordelia'); // receives_typing_notifications is off in the fixture
    const qo = await registerQueue(t, 'othello', ['typing']);
    const qc = await registerQueue(t, 'cordelia', ['typing']);
    const r = await t.as('hamlet').post('/typing', { op: 'start', to: [othello.user_id, cordelia.user_id] });
    expect(r.status).toBe(200);
    const recipients = [othello, cordelia, hamlet].map((u) => ({ user_id: u.user_id, email: u.email }));
    expect(await eventsOf(t, 'othello', qo)).toEqual([
      {
        type: 'typing',
        op: 'start',
        message_type: 'direct',
        sender: { user_id: hamlet.user_id, email: hamlet.email },
        recipients,
        id: 0,
      },
    ]);
    expect(await eventsOf(t, 'cordelia', qc)).toEqual([]);
  });

  it('channel: the subscribers get stream_id and topic', async () => {
    const q = await registerQueue(t, 'iago', ['typing']);
    const denmark = stream(t, 'Denmark').stream_id;
    expect(
      (await t.as('hamlet').post('/typing', { op: 'stop', type: 'channel', stream_id: denmark, topic: 'castle' }))
        .status,
    ).toBe(200);
    expect(await eventsOf(t, 'iago', q)).toMatchObject([
      {
        type: 'typing',
        op: 'stop',
        message_type: 'stream',
        stream_id: denmark,
        topic: 'castle',
        sender: { user_id: t.user('hamlet').user_id },
      },
    ]);
  });

  it('answers the real errors', async () => {
    const post = (who: string, p: Record<string, unknown>) => t.as(who).post('/typing', p);
    expect((await post('hamlet', { op: 'start' })).body).toEqual(error('BAD_REQUEST', "Missing 'to' argument"));
    expect((await post('hamlet', { op: 'start', to: [] })).body).toEqual(error('BAD_REQUEST', "Empty 'to' list"));
    expect((await post('hamlet', { op: 'start', to: [99999] })).body).toEqual(
      error('BAD_REQUEST', 'Invalid user ID 99999'),
    );
    expect((await post('hamlet', { op: 'start', type: 'stream', topic: 'x' })).body).toEqual(
      error('BAD_REQUEST', 'Missing stream_id'),
    );
    expect((await post('hamlet', { op: 'start', type: 'stream', stream_id: 1 })).body).toEqual(
      error('BAD_REQUEST', 'Missing topic'),
    );
    expect(
      (await post('othello', { op: 'start', type: 'stream', stream_id: stream(t, 'core team').stream_id, topic: 'x' }))
        .body,
    ).toEqual(error('BAD_REQUEST', 'Invalid channel ID'));
    expect(
      (await post('hamlet', { op: 'start', type: 'stream', stream_id: stream(t, 'Venice').stream_id, topic: 'x' }))
        .body,
    ).toEqual(error('BAD_REQUEST', 'You do not have permission to post in this channel.'));
    const hamlet = t.user('hamlet');
    store().users.update(hamlet, { settings: { ...hamlet.settings, send_private_typing_notifications: false } });
    expect((await post('hamlet', { op: 'start', to: [t.user('othello').user_id] })).body).toEqual(
      error('BAD_REQUEST', 'User has disabled typing notifications for direct messages'),
    );
    expect((await post('hamlet', { to: [1] })).body).toEqual(
      error('REQUEST_VARIABLE_MISSING', "Missing 'op' argument", { var_name: 'op' }),
    );
  });
});
