// The real JavaScript client uploads a file (multipart, a read stream of a file on disk), links
// it in a message, and another subscriber downloads the same bytes.
import { mkdtempSync, writeFileSync, createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { zulipAs } from '../helpers/zulip-js.js';
import { download, TINY_PNG } from '../helpers/uploads.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('zulip-js and uploads', () => {
  it('uploads an image, links it in a message; a subscriber downloads the same bytes, a non-subscriber is refused', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'teamchat-upload-')), 'screenshot.png');
    writeFileSync(file, TINY_PNG);
    const hamlet = await zulipAs(t, 'hamlet');
    const up = await hamlet.callEndpoint('/user_uploads', 'POST', { filename: createReadStream(file) });
    expect(up).toMatchObject({
      result: 'success',
      filename: 'screenshot.png',
      url: expect.stringMatching(/^\/user_uploads\/2\/.+\/screenshot\.png$/),
    });

    const sent = await hamlet.messages.send({
      type: 'stream',
      to: 'core team',
      topic: 'screens',
      content: `[screenshot.png](${up.url})`,
    });
    const iago = await zulipAs(t, 'iago');
    const fetched = await iago.messages.getById({ message_id: sent.id });
    expect(fetched.message.content).toContain(`href="${up.url}"`);
    const got = await download(t, 'iago', up.url);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(TINY_PNG)).toBe(true);
    expect(await download(t, 'othello', up.url)).toMatchObject({
      status: 403,
      body: { result: 'error', code: 'BAD_REQUEST', msg: 'You are not authorized to view this file.' },
    });

    const listed = await hamlet.callEndpoint('/attachments', 'GET', {});
    expect(listed.attachments).toContainEqual(
      expect.objectContaining({ name: 'screenshot.png', messages: [expect.objectContaining({ id: sent.id })] }),
    );
  });
});
