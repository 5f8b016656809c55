// POST /typing below feature level 215, as Zulip 7 answered it: `to` required for both kinds, a
// channel notification naming its channel as `to`'s one element (stream_id did not exist yet),
// and `private` still a type. From 215 the channel is stream_id and `private` is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { stream } from '../helpers/fixture-rows.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ featureLevel: 214 });
});
afterAll(async () => {
  await t.close();
});

const typing = (who: string, params: Record<string, unknown>, level?: number) =>
  t.as(who, level ? { 'X-Mock-Feature-Level': String(level) } : undefined).post('/typing', params);

describe('POST /typing below FL 215', () => {
  it('a channel notification names its channel in `to`; the subscribers get stream_id and topic', async () => {
    const q = await registerQueue(t, 'iago', ['typing']);
    const denmark = stream(t, 'Denmark').stream_id;
    const r = await typing('hamlet', { op: 'start', type: 'stream', to: [denmark], topic: 'castle' });
    expect(r.status).toBe(200);
    expect(await eventsOf(t, 'iago', q)).toEqual([
      {
        type: 'typing',
        op: 'start',
        message_type: 'stream',
        sender: { user_id: t.user('hamlet').user_id, email: t.user('hamlet').email },
        stream_id: denmark,
        topic: 'castle',
        id: 0,
      },
    ]);
  });

  it('refuses as the older server did: no `to`, an empty one, several channels, no topic', async () => {
    const denmark = stream(t, 'Denmark').stream_id;
    const missingTo = error('REQUEST_VARIABLE_MISSING', "Missing 'to' argument", { var_name: 'to' });
    expect((await typing('hamlet', { op: 'start', type: 'stream', topic: 'x' })).body).toEqual(missingTo);
    // stream_id is not a parameter yet: it does not stand in for `to`.
    expect((await typing('hamlet', { op: 'start', type: 'stream', stream_id: denmark, topic: 'x' })).body).toEqual(
      missingTo,
    );
    expect((await typing('hamlet', { op: 'start' })).body).toEqual(missingTo);
    expect((await typing('hamlet', { op: 'start', type: 'stream', to: [], topic: 'x' })).body).toEqual(
      error('BAD_REQUEST', "Empty 'to' list"),
    );
    expect(
      (await typing('hamlet', { op: 'start', type: 'stream', to: [denmark, denmark + 1], topic: 'x' })).body,
    ).toEqual(error('BAD_REQUEST', 'Cannot send to multiple streams'));
    expect((await typing('hamlet', { op: 'start', type: 'stream', to: [denmark] })).body).toEqual(
      error('BAD_REQUEST', 'Missing topic'),
    );
  });

  it('direct notifications are `private` in the request and the event', async () => {
    const othello = t.user('othello');
    const q = await registerQueue(t, 'othello', ['typing']);
    expect((await typing('hamlet', { op: 'stop', type: 'private', to: [othello.user_id] })).status).toBe(200);
    expect(await eventsOf(t, 'othello', q)).toMatchObject([{ type: 'typing', op: 'stop', message_type: 'private' }]);
  });

  it('from 215: the channel is stream_id, and `private` is no longer a type', async () => {
    const denmark = stream(t, 'Denmark').stream_id;
    expect((await typing('hamlet', { op: 'start', type: 'stream', to: [denmark], topic: 'x' }, 215)).body).toEqual(
      error('BAD_REQUEST', 'Missing stream_id'),
    );
    expect(
      (await typing('hamlet', { op: 'start', type: 'private', to: [t.user('othello').user_id] }, 215)).body,
    ).toEqual(error('BAD_REQUEST', 'Invalid type'));
  });
});
