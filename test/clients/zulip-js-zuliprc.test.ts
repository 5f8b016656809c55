// The official JavaScript client against a running mock: it logs in from a zuliprc the CLI
// helper writes, and reads the subscriptions and the own user.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zulipInit from 'zulip-js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { zulipAs } from '../helpers/zulip-js.js';
import { zuliprc } from '../../src/cli-output.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('zulip-js against the mock', () => {
  it('reads the subscriptions and the own user of a zuliprc user', async () => {
    const hamlet = t.user('hamlet');
    const dir = mkdtempSync(path.join(tmpdir(), 'teamchat-zuliprc-'));
    const file = path.join(dir, 'zuliprc');
    writeFileSync(file, zuliprc(hamlet, t.base));
    const z = await zulipInit({ zuliprc: file });

    const subs = await z.streams.subscriptions.retrieve();
    expect(subs.result).toBe('success');
    // Archived channels are left out, as the real server leaves them out.
    const { store } = t.server.world;
    const expected = store.subscriptions
      .filter((s) => s.user_id === hamlet.user_id && !store.streams.get(s.stream_id)!.is_archived)
      .map((s) => s.stream_id)
      .sort();
    expect(subs.subscriptions.map((s: { stream_id: number }) => s.stream_id).sort()).toEqual(expected);

    const me = await z.users.me.getProfile();
    expect(me).toMatchObject({
      result: 'success',
      user_id: hamlet.user_id,
      email: hamlet.email,
      full_name: hamlet.full_name,
    });
  });

  it('sees subscribers when asking for them, the way the client passes the flag', async () => {
    const z = await zulipAs(t, 'iago');
    const subs = await z.streams.subscriptions.retrieve({ include_subscribers: true });
    expect(subs.result).toBe('success');
    const denmark = subs.subscriptions.find((s: { name: string }) => s.name === 'Denmark');
    const expected = t.server.world.store.subscriptions
      .filter((s) => s.stream_id === denmark.stream_id && t.server.world.store.users.get(s.user_id)!.is_active)
      .map((s) => s.user_id)
      .sort((a, b) => a - b);
    expect([...denmark.subscribers].sort((a: number, b: number) => a - b)).toEqual(expected);
  });
});
