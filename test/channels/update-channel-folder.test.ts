// PATCH /channel_folders/{channel_folder_id}: administrators only, name and description rules,
// archiving and unarchiving. No operation of the description lists folders, so the change is
// read back from the store.
import { beforeEach, describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { watchEvents } from '../helpers/events.js';
import { folderId } from '../helpers/fixture-rows.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const store = () => t.server.world.store;
const folder = (id: number) => store().channelFolders.get(id)!;
let FRONTEND: number; // holds Scotland and Wales
let LEGACY: number; // archived; holds only the archived Old Rome
beforeEach(() => {
  FRONTEND = folderId(t, 'Frontend');
  LEGACY = folderId(t, 'Legacy');
});

describe('PATCH /channel_folders/{channel_folder_id}', () => {
  it('lets an administrator rename a folder and tells everyone', async () => {
    const events = watchEvents(t);
    const res = await t.as('iago').patch(`/channel_folders/${FRONTEND}`, { name: 'Clients' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(folder(FRONTEND).name).toBe('Clients');
    const update = events.find((e) => e.event.type === 'channel_folder')!;
    expect(update.event).toEqual({
      type: 'channel_folder',
      op: 'update',
      channel_folder_id: FRONTEND,
      data: { name: 'Clients' },
    });
    expect(update.users).toContain(t.user('polonius').user_id);
  });

  it('refuses non-administrators', async () => {
    expectError(
      await t.as('shiva').patch(`/channel_folders/${FRONTEND}`, { name: 'Clients' }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await t.as('hamlet').patch(`/channel_folders/${FRONTEND}`, { is_archived: true }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expect(folder(FRONTEND)).toMatchObject({ name: 'Frontend', is_archived: false });
  });

  it('answers BAD_REQUEST for an unknown folder', async () => {
    expectError(
      await t.as('iago').patch('/channel_folders/999', { name: 'Nowhere' }),
      400,
      'BAD_REQUEST',
      'Invalid channel folder ID',
    );
  });

  it('wants a non-empty, unused, printable name within its limit', async () => {
    expectError(
      await t.as('iago').patch(`/channel_folders/${FRONTEND}`, { name: '  ' }),
      400,
      'BAD_REQUEST',
      "Channel folder name can't be empty.",
    );
    expectError(
      await t.as('iago').patch(`/channel_folders/${FRONTEND}`, { name: 'backend' }),
      400,
      'BAD_REQUEST',
      'Channel folder name already in use',
    );
    expectError(
      await t.as('iago').patch(`/channel_folders/${FRONTEND}`, { name: 'a\u0000b' }),
      400,
      'BAD_REQUEST',
      'Invalid character in channel folder name, at position 2.',
    );
    expectError(
      await t.as('iago').patch(`/channel_folders/${FRONTEND}`, { name: 'f'.repeat(61) }),
      400,
      'BAD_REQUEST',
      'name is too long (limit: 60 characters)',
    );
    expect(folder(FRONTEND).name).toBe('Frontend');
    // Its own name is not "in use".
    expect((await t.as('iago').patch(`/channel_folders/${FRONTEND}`, { name: 'Frontend' })).status).toBe(200);
    expect((await t.as('iago').patch(`/channel_folders/${FRONTEND}`, { name: 'f'.repeat(60) })).status).toBe(200);
    expect(folder(FRONTEND).name).toBe('f'.repeat(60));
  });

  it('changes the description and its rendering, within its limit', async () => {
    const events = watchEvents(t);
    expect((await t.as('iago').patch(`/channel_folders/${FRONTEND}`, { description: 'The *apps*' })).status).toBe(200);
    expect(folder(FRONTEND)).toMatchObject({
      description: 'The *apps*',
      rendered_description: '<p>The <em>apps</em></p>',
    });
    expect(events[0].event.data).toEqual({
      description: 'The *apps*',
      rendered_description: '<p>The <em>apps</em></p>',
    });
    expectError(
      await t.as('iago').patch(`/channel_folders/${FRONTEND}`, { description: 'd'.repeat(1025) }),
      400,
      'BAD_REQUEST',
      'description is too long (limit: 1024 characters)',
    );
  });

  it('archives only a folder without active channels, and unarchives', async () => {
    expectError(
      await t.as('iago').patch(`/channel_folders/${FRONTEND}`, { is_archived: true }),
      400,
      'BAD_REQUEST',
      'You need to remove all the channels from this folder to archive it.',
    );
    expect(folder(FRONTEND).is_archived).toBe(false);

    expect((await t.as('iago').patch(`/channel_folders/${LEGACY}`, { is_archived: false })).status).toBe(200);
    expect(folder(LEGACY).is_archived).toBe(false);
    // Its only channel is archived, so the folder can be archived again.
    expect((await t.as('iago').patch(`/channel_folders/${LEGACY}`, { is_archived: true })).status).toBe(200);
    expect(folder(LEGACY).is_archived).toBe(true);

    for (const s of store().streams.filter((x) => x.folder_id === FRONTEND)) {
      expect((await t.as('iago').patch(`/streams/${s.stream_id}`, { folder_id: null })).status).toBe(200);
    }
    expect((await t.as('iago').patch(`/channel_folders/${FRONTEND}`, { is_archived: true })).status).toBe(200);
    expect(folder(FRONTEND).is_archived).toBe(true);
  });
});
