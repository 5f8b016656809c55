// The space uploads may take: the mock bounds what each world (the default one, each sandbox)
// keeps (--max-upload-space-mib; here a few bytes), and honours the organization's own quota
// (realm_upload_quota_mib) when the state has one; past either, the real server's quota error.
import { describe, expect, it } from 'vitest';
import { serverResetPerTest, startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { TINY_PNG, multipart, upload } from '../helpers/uploads.js';
import { ControlClient } from '../../src/control/client.js';
import { runCliToEnd, startCli } from '../helpers/cli.js';
import { basicAuth } from '../helpers/server.js';

/** The bytes the fixture's two uploads take (harbour.png, release-notes.txt). */
const FIXTURE_BYTES = 70 + 77;
const LIMIT = 1000;
const quotaError = error('REALM_UPLOAD_QUOTA', "Upload would exceed your organization's upload quota.");

let t: TestServer;
let control: ControlClient;
serverResetPerTest(
  (server) => {
    t = server;
    control = new ControlClient(server.base);
  },
  { maxUploadSpaceBytes: LIMIT },
);

const file = (bytes: number, name = 'data.bin') => [{ name, bytes: Buffer.alloc(bytes, 1) }];
const attachmentsOf = (world = t.server.world) => world.store.attachments.all().length;

describe("the bound on one world's uploads", () => {
  it('takes files up to the bound, refuses the one that would pass it with nothing stored or sent, and has room again after a deletion', async () => {
    expect(t.server.world.store.attachments.all().reduce((n, a) => n + a.size, 0)).toBe(FIXTURE_BYTES);
    const first = await upload(t, 'hamlet', file(LIMIT - FIXTURE_BYTES - 10));
    expect(first.status).toBe(200);
    const exact = await upload(t, 'othello', file(10));
    expect(exact.status).toBe(200);
    const q = await registerQueue(t, 'hamlet', ['attachment']);
    const before = attachmentsOf();
    const refused = await upload(t, 'hamlet', file(1));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(quotaError);
    expect(attachmentsOf()).toBe(before);
    expect(await eventsOf(t, 'hamlet', q)).toEqual([]);

    const row = t.server.world.store.attachments.by('path_id', first.body.url.slice('/user_uploads/'.length))!;
    expect((await t.as('hamlet').delete(`/attachments/${row.id}`)).status).toBe(200);
    expect((await upload(t, 'hamlet', file(1))).status).toBe(200);
  });

  it('is per world: a full default world leaves a sandbox its own room, and a reset frees the space', async () => {
    expect((await upload(t, 'hamlet', file(LIMIT - FIXTURE_BYTES))).status).toBe(200);
    expect((await upload(t, 'hamlet', file(1))).body).toEqual(quotaError);
    const inSandbox = await upload(t, 'hamlet', file(LIMIT - FIXTURE_BYTES), { 'X-Mock-Sandbox': 'roomy' });
    expect(inSandbox.status).toBe(200);
    expect((await upload(t, 'hamlet', file(1), { 'X-Mock-Sandbox': 'roomy' })).body).toEqual(quotaError);
    await control.reset();
    expect((await upload(t, 'hamlet', file(1))).status).toBe(200);
  });

  it("honours the organization's quota when the state gives one (realm_upload_quota_mib)", async () => {
    const roomy = await startTestServer({ maxUploadSpaceBytes: 4 * 1024 * 1024 });
    try {
      const state = await new ControlClient(roomy.base).state.export();
      state.realm.shown_settings = { ...state.realm.shown_settings, upload_quota_mib: 1 };
      await new ControlClient(roomy.base).state.import(state);
      const register = await roomy
        .as('hamlet')
        .post('/register', { fetch_event_types: '["realm"]', event_types: '["message"]' });
      expect(register.body.realm_upload_quota_mib).toBe(1);
      expect((await upload(roomy, 'hamlet', file(1024 * 1024 - FIXTURE_BYTES))).status).toBe(200);
      expect((await upload(roomy, 'hamlet', file(1))).body).toEqual(quotaError);
    } finally {
      await roomy.close();
    }
  });
});

describe('--max-upload-space-mib', () => {
  it('sets the bound from the command line (0: no uploads at all), and refuses a value that is not a whole number', async () => {
    const cli = await startCli(['--max-upload-space-mib', '0', '--quiet']);
    try {
      const form = new FormData();
      form.append('file', new Blob(['x']), 'x.txt');
      const res = await fetch(`${cli.base}/api/v1/user_uploads`, {
        method: 'POST',
        body: form,
        headers: { authorization: basicAuth('hamlet@zulip.com', 'waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f') },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(quotaError);
    } finally {
      await cli.stop();
    }
    expect(await runCliToEnd(['--max-upload-space-mib', 'lots'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "teamchat-mock: option '--max-upload-space-mib <n>' argument 'lots' is invalid. a whole number of MiB (see --help)\n",
    });
  });
});

describe('uploaded avatars', () => {
  it("count against the world's bound (the same memory), refused with nothing created", async () => {
    expect((await upload(t, 'hamlet', file(LIMIT - FIXTURE_BYTES - TINY_PNG.length + 1))).status).toBe(200);
    const bots = () => t.server.world.store.users.all().filter((u) => u.is_bot).length;
    const before = bots();
    const refused = await multipart(t, 'hamlet', 'POST', '/bots', { full_name: 'Pictured', short_name: 'pictured' }, [
      { name: 'avatar.png', bytes: TINY_PNG, type: 'image/png' },
    ]);
    expect(refused.body).toEqual(quotaError);
    expect(bots()).toBe(before);
    expect(t.server.world.store.userAvatars.all()).toEqual([]);
    const fits = await multipart(t, 'hamlet', 'POST', '/bots', { full_name: 'Plain', short_name: 'plain' }, []);
    expect(fits.status).toBe(200);
  });
});
