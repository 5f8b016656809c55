// POST / DELETE /users/me/avatar: the caller's own avatar, uploaded as one multipart file part or
// reset to the organization's default (from FL 456 its default_avatar_source), with the realm_user events, the image served at the answered URL, and
// the real server's refusals (file count, size, not an image, avatar changes disabled).
import { describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { download, multipart, TINY_PNG } from '../helpers/uploads.js';
import { storeSettings } from '../../src/domain/realm/setting-values.js';

let t: TestServer;
serverPerTest((server) => (t = server));

const png: { name: string; bytes: Buffer; type: string; field?: string } = {
  name: 'me.png',
  bytes: TINY_PNG,
  type: 'image/png',
};
const uploadAvatar = (who: string, files = [png]) => multipart(t, who, 'POST', '/users/me/avatar', {}, files);
const me = async (who: string) => (await t.as(who).get('/users/me')).body;

describe('POST /users/me/avatar', () => {
  it('stores the image, serves it at the answered URL and tells everyone', async () => {
    const queue = await registerQueue(t, 'othello', ['realm_user']);
    const r = await uploadAvatar('hamlet');
    expect(r.status).toBe(200);
    expect(r.body.avatar_url).toMatch(/^\/user_avatars\/\d+\/[0-9a-f]{40}\.png\?version=2$/);
    expect(await me('hamlet')).toMatchObject({ avatar_url: r.body.avatar_url, avatar_version: 2 });
    const served = await download(t, null, r.body.avatar_url);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(TINY_PNG)).toBe(true);
    const events = (await eventsOf(t, 'othello', queue)).map(({ id: _id, ...e }) => e);
    expect(events).toEqual([
      {
        type: 'realm_user',
        op: 'update',
        person: {
          user_id: t.user('hamlet').user_id,
          avatar_source: 'U',
          avatar_url: r.body.avatar_url,
          avatar_url_medium: r.body.avatar_url.replace('.png', '-medium.png'),
          avatar_version: 2,
        },
      },
    ]);
  });

  it('takes exactly one file', async () => {
    expect((await uploadAvatar('hamlet', [])).body).toEqual(
      error('BAD_REQUEST', 'You must upload exactly one avatar.'),
    );
    expect((await uploadAvatar('hamlet', [png, { ...png, field: 'second' }])).body).toEqual(
      error('BAD_REQUEST', 'You must upload exactly one avatar.'),
    );
    expect((await me('hamlet')).avatar_version).toBe(1);
  });

  it('refuses what is not an image, and files past the size limit', async () => {
    expect(
      (await uploadAvatar('hamlet', [{ name: 'a.txt', bytes: Buffer.from('hello'), type: 'text/plain' }])).body,
    ).toEqual(error('BAD_IMAGE', 'Could not decode image; did you upload an image file?'));
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(5 * 1024 * 1024)]);
    expect((await uploadAvatar('hamlet', [{ ...png, bytes: big }])).body).toEqual(
      error('BAD_REQUEST', 'Uploaded file is larger than the allowed limit of 5 MiB'),
    );
  });

  it('refuses non-administrators when the organization disabled avatar changes', async () => {
    expect((await t.as('iago').patch('/realm', { avatar_changes_disabled: true })).status).toBe(200);
    expect((await uploadAvatar('hamlet')).body).toEqual(
      error('BAD_REQUEST', 'Avatar changes are disabled in this organization.'),
    );
    expect((await t.as('hamlet').delete('/users/me/avatar')).body).toEqual(
      error('BAD_REQUEST', 'Avatar changes are disabled in this organization.'),
    );
    expect((await uploadAvatar('iago')).status).toBe(200);
  });
});

describe('DELETE /users/me/avatar', () => {
  it("goes back to the Gravatar (the organization's default G) with a new version, and the image is no longer served", async () => {
    storeSettings(t.server.world.store, { default_avatar_source: 'G' });
    const uploaded = (await uploadAvatar('hamlet')).body.avatar_url;
    const queue = await registerQueue(t, 'othello', ['realm_user']);
    const r = await t.as('hamlet').delete('/users/me/avatar');
    expect(r.status).toBe(200);
    expect(r.body.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=3$/);
    expect(await me('hamlet')).toMatchObject({ avatar_url: r.body.avatar_url, avatar_version: 3 });
    expect((await download(t, null, uploaded)).status).toBe(404);
    const [event] = await eventsOf(t, 'othello', queue);
    expect(event.person).toMatchObject({
      user_id: t.user('hamlet').user_id,
      avatar_source: 'G',
      avatar_version: 3,
      avatar_url: r.body.avatar_url,
    });
  });

  it("from FL 456 goes back to the organization's default J: a newly drawn image, served, announced", async () => {
    const uploaded = (await uploadAvatar('hamlet')).body.avatar_url;
    const newest = { 'X-Mock-Feature-Level': '511' }; // also when the suite runs at 372
    const queue = (
      await t.as('othello', newest).post('/register', { event_types: ['realm_user'], fetch_event_types: [] })
    ).body.queue_id;
    const r = await t.as('hamlet', newest).delete('/users/me/avatar');
    expect(r.status).toBe(200);
    expect(r.body.avatar_url).toMatch(/^\/user_avatars\/\d+\/[0-9a-f]{40}\.png\?version=3$/);
    expect(r.body.avatar_url.split('?')[0]).not.toBe(uploaded.split('?')[0]);
    expect((await download(t, null, uploaded)).status).toBe(404);
    const drawn = await download(t, null, r.body.avatar_url);
    expect([drawn.status, drawn.type]).toEqual([200, 'image/png']);
    const own = (await t.as('hamlet', newest).post('/register', { fetch_event_types: ['realm_user'] })).body;
    expect(own).toMatchObject({ avatar_source: 'J', avatar_url: r.body.avatar_url });
    const [event] = await eventsOf(t, 'othello', queue);
    expect(event.person).toMatchObject({ avatar_source: 'J', avatar_version: 3, avatar_url: r.body.avatar_url });
    // Only the drawn image is kept for the account.
    expect(t.server.world.store.userAvatars.filter((a) => a.user_id === t.user('hamlet').user_id)).toHaveLength(1);
  });

  it('below FL 456 goes back to the Gravatar whatever the setting', async () => {
    await uploadAvatar('hamlet');
    const r = await t.as('hamlet', { 'X-Mock-Feature-Level': '455' }).delete('/users/me/avatar');
    expect(r.body.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=3$/);
    expect(t.server.world.store.userAvatars.filter((a) => a.user_id === t.user('hamlet').user_id)).toHaveLength(0);
  });
});
