// GET /channel_folders: the organization's channel folders.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
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

describe('GET /channel_folders', () => {
  it('lists the folders in order, archived ones only on request', async () => {
    const r = await t.as('hamlet').get('/channel_folders');
    expect(r.body.channel_folders.map((f: any) => f.name)).toEqual(['Frontend', 'Backend']);
    expect(r.body.channel_folders[0]).toMatchObject({
      id: 1,
      order: 0,
      is_archived: false,
      rendered_description: '<p>Channels for the <strong>web</strong> and mobile apps.</p>',
    });
    const all = await t.as('polonius').get('/channel_folders', { include_archived: true });
    expect(all.body.channel_folders.map((f: any) => f.name)).toEqual(['Frontend', 'Backend', 'Legacy']);
  });

  it('does not exist before feature level 389', async () => {
    expectError(
      await t.as('hamlet', { 'X-Mock-Feature-Level': '388' }).get('/channel_folders'),
      404,
      'BAD_REQUEST',
      'Not Found',
    );
  });
});
