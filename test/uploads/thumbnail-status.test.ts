// GET /thumbnail/status/{realm_id_str}/{filename}: true for an image the mock previews (its
// rendering is final at once), false for other files; the download's access rules and errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { TINY_PNG, upload } from '../helpers/uploads.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const statusPath = (url: string) => url.replace('/user_uploads/', '/thumbnail/status/');

describe('GET /thumbnail/status/{realm_id_str}/{filename}', () => {
  it('answers true for an image and false for another file, to the uploader', async () => {
    const image = (await upload(t, 'hamlet', [{ name: 'castle.png', bytes: TINY_PNG, type: 'image/png' }])).body.url;
    const text = (await upload(t, 'hamlet', [{ name: 'notes.txt', bytes: Buffer.from('minutes'), type: 'text/plain' }]))
      .body.url;
    expect((await t.as('hamlet').get(statusPath(image))).body).toEqual({
      result: 'success',
      msg: '',
      has_thumbnail: true,
    });
    expect((await t.as('hamlet').get(statusPath(text))).body.has_thumbnail).toBe(false);
  });

  it('refuses users who may not see the file, and unknown files', async () => {
    const image = (await upload(t, 'hamlet', [{ name: 'secret.png', bytes: TINY_PNG, type: 'image/png' }])).body.url;
    expectError(
      await t.as('othello').get(statusPath(image)),
      403,
      'BAD_REQUEST',
      'You are not authorized to view this file.',
    );
    expectError(
      await t.as('hamlet').get('/thumbnail/status/2/aa/nothing/here.png'),
      404,
      'BAD_REQUEST',
      'File not found.',
    );
    // Once linked in a public channel, other members may see it.
    await t
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Denmark', topic: 'pics', content: `[secret](${image})` });
    expect((await t.as('othello').get(statusPath(image))).body.has_thumbnail).toBe(true);
  });

  it('does not exist before feature level 479', async () => {
    const image = (await upload(t, 'hamlet', [{ name: 'old.png', bytes: TINY_PNG, type: 'image/png' }])).body.url;
    expectError(
      await t.as('hamlet', { 'X-Mock-Feature-Level': '478' }).get(statusPath(image)),
      404,
      'BAD_REQUEST',
      'Not Found',
    );
  });
});
