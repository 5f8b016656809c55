// Rows of the running server's state found by name, for tests that need their IDs.
import type { TestServer } from './server.js';

export const stream = (t: TestServer, name: string) => t.server.world.store.streams.by('name', name.toLowerCase())!;

export const streamId = (t: TestServer, name: string) => stream(t, name).stream_id;

export const folderId = (t: TestServer, name: string) =>
  t.server.world.store.channelFolders.find((f) => f.name === name)!.id;

export const groupId = (t: TestServer, name: string) =>
  t.server.world.store.userGroups.find((g) => g.name === name)!.id;
