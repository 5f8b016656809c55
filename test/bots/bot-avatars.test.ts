// Bots' uploaded avatars through HTTP: a file part of POST /bots or PATCH /bots/{bot_id}, the URL
// answered and read back, the image served at the site's /user_avatars/... without credentials,
// the events of a new avatar, and the real server's refusals.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { error } from '../helpers/errors.js';
import { eventsOf, registerQueue } from '../helpers/events.js';
import { TINY_PNG, download, multipart } from '../helpers/uploads.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
beforeEach(() => t.server.world.reset());
afterAll(async () => {
  await t.close();
});

/** A 1x1 GIF. */
const TINY_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
const AVATAR_URL = /^\/user_avatars\/2\/[0-9a-f]{40}\.png\?version=(\d+)$/;
const bot = { full_name: 'Pictured', short_name: 'pictured' };
const path = (url: string) => url.split('?')[0];

describe('POST /bots with an avatar', () => {
  it("answers the uploaded avatar's URL, reads it back everywhere, and serves the image to anyone", async () => {
    const r = await multipart(t, 'hamlet', 'POST', '/bots', bot, [
      { name: 'avatar.png', bytes: TINY_PNG, type: 'image/png' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.avatar_url).toMatch(AVATAR_URL);
    const botId = r.body.user_id;
    expect(
      (await t.as('hamlet').get('/bots')).body.bots.find((b: any) => b.username === 'pictured-bot@zulip.com')
        .avatar_url,
    ).toBe(r.body.avatar_url);
    // Even for clients that compute Gravatar URLs themselves: an uploaded avatar is no Gravatar.
    const users = (await t.as('othello').get('/users', { client_gravatar: true })).body.members;
    expect(users.find((u: any) => u.user_id === botId)).toMatchObject({
      avatar_url: r.body.avatar_url,
      avatar_version: 1,
    });
    const served = await download(t, null, r.body.avatar_url);
    expect(served.status).toBe(200);
    expect(served.type).toBe('image/png');
    expect(served.bytes.equals(TINY_PNG)).toBe(true);
    const medium = await download(t, null, `${path(r.body.avatar_url).replace(/\.png$/, '-medium.png')}?version=1`);
    expect(medium.bytes.equals(TINY_PNG)).toBe(true);
  });

  it('takes the image for what its bytes are, whatever type the upload declared', async () => {
    const r = await multipart(t, 'hamlet', 'POST', '/bots', bot, [
      { name: 'avatar.bin', bytes: TINY_GIF, type: 'application/octet-stream' },
    ]);
    expect(r.status).toBe(200);
    expect((await download(t, null, r.body.avatar_url)).type).toBe('image/gif');
  });

  it('refuses two files, a file that is no image and one past max_avatar_file_size_mib, creating nothing', async () => {
    const two = await multipart(t, 'hamlet', 'POST', '/bots', bot, [
      { name: 'a.png', bytes: TINY_PNG, type: 'image/png' },
      { name: 'b.png', bytes: TINY_PNG, type: 'image/png', field: 'file2' },
    ]);
    expect(two.status).toBe(400);
    expect(two.body).toEqual(error('BAD_REQUEST', 'You may only upload one file at a time'));
    const text = await multipart(t, 'hamlet', 'POST', '/bots', bot, [
      { name: 'notes.png', bytes: Buffer.from('not an image'), type: 'image/png' },
    ]);
    expect(text.status).toBe(400);
    expect(text.body).toEqual(error('BAD_IMAGE', 'Could not decode image; did you upload an image file?'));
    const huge = Buffer.concat([TINY_PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const large = await multipart(t, 'hamlet', 'POST', '/bots', bot, [
      { name: 'huge.png', bytes: huge, type: 'image/png' },
    ]);
    expect(large.status).toBe(400);
    expect(large.body).toEqual(error('BAD_REQUEST', 'Uploaded file is larger than the allowed limit of 5 MiB'));
    expect(t.server.world.store.users.by('email', 'pictured-bot@zulip.com')).toBeUndefined();
    expect(t.server.world.store.userAvatars.all()).toEqual([]);
  });
});

describe('PATCH /bots/{bot_id} with an avatar', () => {
  it('gives the bot a new avatar at a new path: a new version, realm_user update to everyone, the old image gone', async () => {
    const botId = t.user('hamlet-bot').user_id;
    const othelloQ = await registerQueue(t, 'othello', ['realm_user', 'realm_bot']);
    const oldHamletQ = (
      await t
        .as('hamlet', { 'X-Mock-Feature-Level': '473' })
        .post('/register', { event_types: ['realm_bot'], fetch_event_types: [] })
    ).body.queue_id;
    const first = await multipart(t, 'hamlet', 'PATCH', `/bots/${botId}`, {}, [
      { name: 'a.png', bytes: TINY_PNG, type: 'image/png' },
    ]);
    expect(first.status).toBe(200);
    expect(first.body.avatar_url).toMatch(AVATAR_URL);
    expect(AVATAR_URL.exec(first.body.avatar_url)![1]).toBe('2');
    const second = await multipart(t, 'hamlet', 'PATCH', `/bots/${botId}`, { full_name: 'Yorick' }, [
      { name: 'b.gif', bytes: TINY_GIF, type: 'image/gif' },
    ]);
    expect(second.body).toMatchObject({ full_name: 'Yorick', avatar_url: expect.stringMatching(/\?version=3$/) });
    expect(path(second.body.avatar_url)).not.toBe(path(first.body.avatar_url));
    expect((await download(t, null, first.body.avatar_url)).body).toEqual(error('BAD_REQUEST', 'File not found.'));
    expect((await download(t, null, second.body.avatar_url)).bytes.equals(TINY_GIF)).toBe(true);

    const avatarEvents = (await eventsOf(t, 'othello', othelloQ)).filter((e) => e.person?.avatar_url);
    expect(avatarEvents.map((e) => e.person)).toEqual([
      {
        user_id: botId,
        avatar_source: 'U',
        avatar_url: first.body.avatar_url,
        avatar_url_medium: first.body.avatar_url.replace('.png?', '-medium.png?'),
        avatar_version: 2,
      },
      {
        user_id: botId,
        avatar_source: 'U',
        avatar_url: second.body.avatar_url,
        avatar_url_medium: second.body.avatar_url.replace('.png?', '-medium.png?'),
        avatar_version: 3,
      },
    ]);
    // The owner's queue of FL 473 also gets the avatar as a realm_bot update; newer queues do not.
    expect((await eventsOf(t, 'hamlet', oldHamletQ)).map((e) => e.bot)).toEqual([
      { user_id: botId, avatar_url: first.body.avatar_url },
      { user_id: botId, full_name: 'Yorick' },
      { user_id: botId, avatar_url: second.body.avatar_url },
    ]);
    expect(t.server.world.store.userAvatars.all()).toHaveLength(1);
  });

  it('refuses a file that is no image without changing the bot', async () => {
    const botId = t.user('hamlet-bot').user_id;
    const r = await multipart(t, 'hamlet', 'PATCH', `/bots/${botId}`, { full_name: 'Yorick' }, [
      { name: 'a.txt', bytes: Buffer.from('hello'), type: 'text/plain' },
    ]);
    expect(r.body).toEqual(error('BAD_IMAGE', 'Could not decode image; did you upload an image file?'));
    expect(t.user('hamlet-bot')).toMatchObject({ full_name: "Hamlet's Bot", avatar_version: 1 });
  });
});

describe('GET /user_avatars/{realm_id}/{filename}', () => {
  it('answers 404 for a path no avatar has', async () => {
    for (const url of [
      '/user_avatars/2/0123456789abcdef0123456789abcdef01234567.png',
      '/user_avatars/3/x.png',
      '/user_avatars/2/nothing',
    ]) {
      const r = await download(t, null, url);
      expect(r.status).toBe(404);
      expect(r.body).toEqual(error('BAD_REQUEST', 'File not found.'));
    }
  });
});
