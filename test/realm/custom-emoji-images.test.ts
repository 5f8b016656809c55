// A custom emoji's image: checked as the real server checks it (a type it thumbnails and shows
// inline, declared or guessed from the file name, and bytes that read as an image), served at the
// source_url the emoji list gives, and counted against the bound on stored files.
import { describe, expect, it } from 'vitest';
import { serverPerTest, basicAuth, startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/errors.js';
import { TINY_PNG, download } from '../helpers/uploads.js';
import { heldUploadBytes } from '../../src/domain/uploads/upload.js';

let t: TestServer;
serverPerTest((server) => (t = server));

/** A multipart body written by hand: `type` null sends the part without a Content-Type, as Python's requests does. */
async function uploadRaw(who: string, name: string, file: { filename: string; bytes: Buffer; type: string | null }) {
  const u = t.user(who);
  const boundary = '----teamchat-mock-test';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\n${file.type === null ? '' : `Content-Type: ${file.type}\r\n`}\r\n`;
  const body = Buffer.concat([Buffer.from(head), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const res = await fetch(`${t.base}/api/v1/realm/emoji/${name}`, {
    method: 'POST',
    body,
    headers: {
      authorization: basicAuth(u.email, u.api_key),
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
  });
  return { status: res.status, body: (await res.json()) as any };
}
const emojiNamed = async (name: string) =>
  Object.values<any>((await t.as('othello').get('/realm/emoji')).body.emoji).find((e) => e.name === name);

describe('custom emoji images', () => {
  it('guesses the type from the file name when the part declares none (Python requests), and serves the image at source_url', async () => {
    expect(await uploadRaw('hamlet', 'no_type', { filename: 'party.png', bytes: TINY_PNG, type: null })).toEqual({
      status: 200,
      body: { result: 'success', msg: '' },
    });
    const emoji = await emojiNamed('no_type');
    const served = await download(t, null, emoji.source_url);
    expect(served.status).toBe(200);
    expect(served.type).toBe('image/png');
    expect(served.bytes).toEqual(TINY_PNG);
  });

  it('refuses bytes that are not an image of an accepted type, as the real server does', async () => {
    expectError(
      await uploadRaw('hamlet', 'fake', {
        filename: 'fake.png',
        bytes: Buffer.from('<svg onload=alert(1)>'),
        type: 'image/png',
      }),
      400,
      'BAD_IMAGE',
      'Could not decode image; did you upload an image file?',
    );
    expectError(
      await uploadRaw('hamlet', 'vector', { filename: 'v.svg', bytes: Buffer.from('<svg/>'), type: null }),
      400,
      'BAD_IMAGE',
      'Invalid image format',
    );
    expect(await emojiNamed('fake')).toBeUndefined();
  });

  it('serves a fixture emoji (no uploaded image) as a placeholder PNG, a deactivated one still, and 404 for no emoji', async () => {
    const fixtureEmoji = await emojiNamed('green_tick');
    const served = await download(t, null, fixtureEmoji.source_url);
    expect(served.status).toBe(200);
    expect(served.type).toBe('image/png');
    expect(served.bytes.subarray(1, 4).toString()).toBe('PNG');
    await uploadRaw('iago', 'gone', { filename: 'g.png', bytes: TINY_PNG, type: 'image/png' });
    const gone = await emojiNamed('gone');
    expect((await t.as('iago').delete('/realm/emoji/gone')).status).toBe(200);
    expect((await download(t, null, gone.source_url)).bytes).toEqual(TINY_PNG);
    const missing = await download(t, null, `/user_avatars/${t.server.world.store.realm.id}/emoji/images/9999.png`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ result: 'error', msg: 'File not found.', code: 'BAD_REQUEST' });
  });

  it('counts emoji images against the bound on stored files', async () => {
    // Room for one 220-byte image beside what the fixture holds, not for two.
    const small = await startTestServer({ maxUploadSpaceBytes: heldUploadBytes(t.server.world.store) + 300 });
    try {
      const u = small.user('hamlet');
      const send = async (name: string) => {
        const form = new FormData();
        form.append(
          'f',
          new Blob([new Uint8Array(Buffer.concat([TINY_PNG, Buffer.alloc(150)]))], { type: 'image/png' }),
          'x.png',
        );
        const res = await fetch(`${small.base}/api/v1/realm/emoji/${name}`, {
          method: 'POST',
          body: form,
          headers: { authorization: basicAuth(u.email, u.api_key) },
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      expect(await send('first_one')).toEqual({ status: 200, body: { result: 'success', msg: '' } });
      expectError(
        await send('second_one'),
        400,
        'REALM_UPLOAD_QUOTA',
        "Upload would exceed your organization's upload quota.",
      );
    } finally {
      await small.close();
    }
  });
});
