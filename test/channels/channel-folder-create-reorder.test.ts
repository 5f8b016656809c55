// POST /channel_folders/create and PATCH /channel_folders: administrators create and reorder
// folders; everyone is told with channel_folder add / reorder events.
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

const folders = async () =>
  (await t.as('hamlet').get('/channel_folders', { include_archived: true })).body.channel_folders;

describe('POST /channel_folders/create', () => {
  it('creates a folder placed last, read back, with an add event to every user', async () => {
    const q = await registerQueue(t, 'hamlet', ['channel_folder']);
    const before = t.server.clock.now();
    const r = await t
      .as('iago')
      .post('/channel_folders/create', { name: 'Marketing', description: 'For **marketing**.' });
    expect(r.body).toEqual({ result: 'success', msg: '', channel_folder_id: 4 });
    // The creation's second, which a loaded machine may put after the one the request began in.
    const created = (await folders()).at(-1).date_created;
    expect(created).toBeGreaterThanOrEqual(before);
    expect(created).toBeLessThanOrEqual(t.server.clock.now());
    const folder = {
      id: 4,
      name: 'Marketing',
      description: 'For **marketing**.',
      rendered_description: '<p>For <strong>marketing</strong>.</p>',
      order: 4,
      creator_id: t.user('iago').user_id,
      date_created: created,
      is_archived: false,
    };
    expect((await folders()).at(-1)).toEqual(folder);
    expect(await eventsOf(t, 'hamlet', q)).toEqual([
      { type: 'channel_folder', op: 'add', id: 0, channel_folder: folder },
    ]);
    const reg = await t.as('hamlet').post('/register', { fetch_event_types: ['channel_folders'] });
    expect(reg.body.channel_folders.map((f: any) => f.name)).toEqual(['Frontend', 'Backend', 'Legacy', 'Marketing']);
  });

  it('refuses non-administrators, empty, taken and unprintable names and a missing description', async () => {
    expectError(
      await t.as('hamlet').post('/channel_folders/create', { name: 'X', description: '' }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await t.as('iago').post('/channel_folders/create', { name: '  ', description: '' }),
      400,
      'BAD_REQUEST',
      "Channel folder name can't be empty.",
    );
    expectError(
      await t.as('iago').post('/channel_folders/create', { name: 'frontend', description: '' }),
      400,
      'BAD_REQUEST',
      'Channel folder name already in use',
    );
    expectError(
      await t.as('iago').post('/channel_folders/create', { name: 'a\u0001', description: '' }),
      400,
      'BAD_REQUEST',
      'Invalid character in channel folder name, at position 2.',
    );
    expectError(
      await t.as('iago').post('/channel_folders/create', { name: 'Ops' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'description' argument",
    );
    expect((await folders()).length).toBe(3);
  });

  it('does not exist before feature level 389', async () => {
    expectError(
      await t
        .as('iago', { 'X-Mock-Feature-Level': '388' })
        .post('/channel_folders/create', { name: 'X', description: '' }),
      404,
      'BAD_REQUEST',
      'Not Found',
    );
  });
});

describe('PATCH /channel_folders', () => {
  it('sets the order of every folder, with a reorder event', async () => {
    const q = await registerQueue(t, 'othello', ['channel_folder']);
    expect((await t.as('iago').patch('/channel_folders', { order: [3, 1, 2, 99] })).status).toBe(200);
    expect((await folders()).map((f: any) => [f.id, f.order])).toEqual([
      [3, 0],
      [1, 1],
      [2, 2],
    ]);
    expect(await eventsOf(t, 'othello', q)).toEqual([
      { type: 'channel_folder', op: 'reorder', id: 0, order: [3, 1, 2, 99] },
    ]);
  });

  it('refuses an order that leaves a folder out, and non-administrators', async () => {
    expectError(
      await t.as('iago').patch('/channel_folders', { order: [2, 1] }),
      400,
      'BAD_REQUEST',
      'Invalid order mapping.',
    );
    expectError(
      await t.as('hamlet').patch('/channel_folders', { order: [3, 2, 1] }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await t.as('iago').patch('/channel_folders', {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'order' argument",
    );
    expect((await folders()).map((f: any) => f.id)).toEqual([1, 2, 3]);
  });

  it('is not allowed before feature level 414 (GET alone answers there), and a queue of an older level gets no reorder event', async () => {
    const r = await t.as('iago', { 'X-Mock-Feature-Level': '413' }).patch('/channel_folders', { order: [1, 2, 3] });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET');
    const old = (
      await t.as('hamlet', { 'X-Mock-Feature-Level': '413' }).post('/register', { event_types: ['channel_folder'] })
    ).body.queue_id;
    await t.as('iago').patch('/channel_folders', { order: [2, 1, 3] });
    await t.as('iago').post('/channel_folders/create', { name: 'Ops', description: '' });
    expect((await eventsOf(t, 'hamlet', old)).map((e) => e.op)).toEqual(['add']);
  });
});
